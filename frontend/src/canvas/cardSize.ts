// A card's usual size in flow units (app.css `.card`). Apart from layout.ts so that what only needs the
// size (the canvas, the regions, the quick layout) does not bring dagre into the page: dagre runs in a
// worker (flows/layoutWorker.ts).
export const NODE_WIDTH = 220;
export const NODE_HEIGHT = 84;

export interface Size {
  width: number;
  height: number;
}
