// Where each loop's tinted region goes: the box around the loop node and its body, padded more for the
// outer loops so nested regions sit inside each other.
import type { FlowDocument, Position } from '../flows/document';
import { loopRegions, regions as allRegions } from '../flows/document';
import { NODE_HEIGHT, NODE_WIDTH } from './cardSize';

export interface RegionBox {
  loop: string;
  depth: number;
  position: Position;
  width: number;
  height: number;
}

export function regionBoxes(doc: FlowDocument): RegionBox[] {
  const at = new Map(doc.nodes.map((n) => [n.id, n.position ?? { x: 0, y: 0 }]));
  const regions = loopRegions(doc);
  // Parallels count: a loop inside a lane is padded less than the lane around it (lanes.ts).
  const deepest = Math.max(0, ...allRegions(doc).map((r) => r.depth));
  return regions.map((region) => {
    const ids = [region.loop, ...region.members];
    const xs = ids.map((id) => at.get(id)?.x ?? 0);
    const ys = ids.map((id) => at.get(id)?.y ?? 0);
    const pad = 16 + 14 * (deepest - region.depth);
    const left = Math.min(...xs) - pad;
    const top = Math.min(...ys) - pad - 18;
    return {
      loop: region.loop,
      depth: region.depth,
      position: { x: left, y: top },
      width: Math.max(...xs) + NODE_WIDTH + pad - left,
      height: Math.max(...ys) + NODE_HEIGHT + pad - top,
    };
  });
}
