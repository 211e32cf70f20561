// Auto-layout of a flow with parallels: each parallel becomes one block, laid out inside first (its lanes
// side by side in the order of its `branches` wires, the parallel node centred above them), then placed
// in the graph around it as a single node of the block's size. Lanes therefore never interleave with each
// other or with nodes outside, and what follows `done` comes below the whole block. Deepest first, so a
// parallel inside a lane is a block inside that lane.
import { parallelRegions, regions, type FlowDocument, type FlowNode, type Position } from '../flows/document';
import { NODE_HEIGHT, NODE_WIDTH, type Size } from './cardSize';
import { place } from './place';
import { regionPad } from './lanes';

const RANK_GAP = 70;

function bounds(
  placed: Map<string, Position>,
  sizes: Map<string, Size>,
): { x: number; y: number; w: number; h: number } {
  let x = Infinity;
  let y = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const [id, p] of placed) {
    const s = sizes.get(id) ?? { width: NODE_WIDTH, height: NODE_HEIGHT };
    x = Math.min(x, p.x);
    y = Math.min(y, p.y);
    right = Math.max(right, p.x + s.width);
    bottom = Math.max(bottom, p.y + s.height);
  }
  return { x, y, w: right - x, h: bottom - y };
}

export function layoutLanes(doc: FlowDocument): Map<string, Position> {
  const deepest = Math.max(0, ...regions(doc).map((r) => r.depth));
  const byId = new Map(doc.nodes.map((n) => [n.id, n]));
  // Each node's stand-in at the level being laid out: itself, or the parallel whose block holds it.
  const rep = new Map(doc.nodes.map((n) => [n.id, n.id]));
  const sizes = new Map<string, Size>();
  // A block's members (the parallel node included) at their offsets from the block's top-left corner.
  const inside = new Map<string, Map<string, Position>>();

  /** The document of `ids` (stand-ins) and the wires between them, endpoints mapped to stand-ins. */
  const sub = (ids: Set<string>): FlowDocument => ({
    ...doc,
    nodes: [...ids].map((id) => byId.get(id) as FlowNode),
    wires: doc.wires
      .map((w) => ({ ...w, from: rep.get(w.from) ?? w.from, to: rep.get(w.to) ?? w.to }))
      .filter((w) => w.from !== w.to && ids.has(w.from) && ids.has(w.to)),
  });

  const parallels = [...parallelRegions(doc)].sort((a, b) => b.depth - a.depth);
  for (const { parallel, depth, lanes } of parallels) {
    const gap = Math.max(60, 2 * regionPad(depth, deepest));
    const laid = lanes.flatMap((lane) => {
      const ids = new Set(lane.map((id) => rep.get(id) ?? id));
      ids.delete(parallel);
      if (!ids.size) return [];
      const placed = place(sub(ids), sizes);
      return [{ placed, box: bounds(placed, sizes) }];
    });
    const lanesWidth = laid.reduce((sum, l) => sum + l.box.w, 0) + gap * Math.max(0, laid.length - 1);
    const width = Math.max(NODE_WIDTH, lanesWidth);
    const members = new Map<string, Position>([[parallel, { x: (width - NODE_WIDTH) / 2, y: 0 }]]);
    let x = (width - lanesWidth) / 2;
    let height = NODE_HEIGHT;
    for (const { placed, box } of laid) {
      const top = NODE_HEIGHT + RANK_GAP;
      for (const [id, p] of placed) {
        const at = { x: x + p.x - box.x, y: top + p.y - box.y };
        const nested = inside.get(id);
        if (nested) for (const [member, q] of nested) members.set(member, { x: at.x + q.x, y: at.y + q.y });
        else members.set(id, at);
      }
      x += box.w + gap;
      height = Math.max(height, top + box.h);
    }
    for (const id of members.keys()) rep.set(id, parallel);
    inside.set(parallel, members);
    sizes.set(parallel, { width, height });
  }

  const top = new Set(doc.nodes.map((n) => rep.get(n.id) ?? n.id));
  const placed = place(sub(top), sizes);
  const result = new Map<string, Position>();
  for (const node of doc.nodes) {
    const stand = rep.get(node.id) ?? node.id;
    const at = placed.get(stand) ?? { x: 0, y: 0 };
    const offset = stand === node.id && !inside.has(stand) ? { x: 0, y: 0 } : inside.get(stand)?.get(node.id);
    result.set(node.id, { x: Math.round(at.x + (offset?.x ?? 0)), y: Math.round(at.y + (offset?.y ?? 0)) });
  }
  return result;
}
