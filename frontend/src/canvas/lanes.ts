// A parallel's region on the canvas: a tinted box around the parallel node and its branches, one lane per
// wire of `branches` side by side inside it, and `done` leaving below (laneLayout.ts places them so).
import { parallelRegions, portOf, regions, type FlowDocument, type Position } from '../flows/document';
import { NODE_HEIGHT, NODE_WIDTH } from './cardSize';

export interface LaneBox {
  /** The target of the lane's `branches` wire. */
  head: string;
  /** Relative to the parallel's box. */
  position: Position;
  width: number;
  height: number;
}

export interface ParallelBox {
  parallel: string;
  depth: number;
  position: Position;
  width: number;
  height: number;
  lanes: LaneBox[];
}

/** The padding of a region `depth` deep when the deepest is `deepest` (as loops are padded: regions.ts). */
export function regionPad(depth: number, deepest: number): number {
  return 16 + 14 * (deepest - depth);
}

const LABEL = 18;
// Room above the lanes for their labels, clear of the label of a loop drawn at a lane's head.
const LANE_LABEL = 30;

export function parallelBoxes(doc: FlowDocument): ParallelBox[] {
  // Called on every edit and every step of a drag: a flow without a parallel costs one pass.
  if (!doc.nodes.some((n) => n.type === 'parallel')) return [];
  const at = new Map(doc.nodes.map((n) => [n.id, n.position ?? { x: 0, y: 0 }]));
  const deepest = Math.max(0, ...regions(doc).map((r) => r.depth));
  return parallelRegions(doc).map(({ parallel, depth, lanes }) => {
    const pad = regionPad(depth, deepest);
    const lanePad = pad - 7;
    const own = at.get(parallel) ?? { x: 0, y: 0 };
    const members = lanes.flat().map((id) => at.get(id) ?? { x: 0, y: 0 });
    const laneTop = Math.min(...lanes.flat().map((id) => at.get(id)?.y ?? 0)) - lanePad - LANE_LABEL;
    const laneBottom = Math.max(...members.map((p) => p.y)) + NODE_HEIGHT + lanePad;
    const left = Math.min(own.x, ...members.map((p) => p.x)) - pad;
    const right = Math.max(own.x, ...members.map((p) => p.x)) + NODE_WIDTH + pad;
    const top = own.y - pad - LABEL;
    const bottom = Math.max(own.y + NODE_HEIGHT, ...members.map((p) => p.y + NODE_HEIGHT)) + pad;
    const heads = doc.wires.filter((w) => w.from === parallel && portOf(w) === 'branches').map((w) => w.to);
    const boxes: LaneBox[] = lanes.flatMap((lane, i) => {
      if (!lane.length) return [];
      const xs = lane.map((id) => at.get(id)?.x ?? 0);
      const x = Math.min(...xs) - lanePad;
      return [
        {
          head: heads[i] ?? '',
          position: { x: x - left, y: laneTop - top },
          width: Math.max(...xs) + NODE_WIDTH + lanePad - x,
          height: laneBottom - laneTop,
        },
      ];
    });
    return {
      parallel,
      depth,
      position: { x: left, y: top },
      width: right - left,
      height: bottom - top,
      lanes: boxes,
    };
  });
}
