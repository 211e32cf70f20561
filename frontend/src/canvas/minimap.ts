// From this many nodes a flow rarely fits the view at a readable zoom, so the editor's canvas and the run
// page show a minimap (React Flow's MiniMap) beside the zoom buttons, which every canvas has.
export const MINIMAP_FROM = 20;
