// The layout a document without positions opens with, at once: rows by the longest path from the trigger,
// each row in the order a walk in port order meets its nodes (approve left of reject, as dagre places
// them). Linear in nodes and wires; dagre's layout (canvas/layout.ts) of a 500-node flow takes a second
// or more, so it runs in a worker (flows/layoutWorker.ts) and replaces this one if nothing was edited.
import { NODE_HEIGHT, NODE_WIDTH } from '../canvas/cardSize';
import { PORTS, portOf, type FlowDocument, type Position, type Wire } from './document';

const NODE_GAP = 60;
const RANK_GAP = 70;
const MARGIN = 20;

export function quickLayout(doc: FlowDocument): Map<string, Position> {
  const typeOf = new Map(doc.nodes.map((n) => [n.id, n.type]));
  const portRank = (wire: Wire) => (PORTS[typeOf.get(wire.from) ?? ''] ?? []).indexOf(portOf(wire));
  const outs = new Map<string, string[]>(doc.nodes.map((n) => [n.id, []]));
  const indegree = new Map<string, number>(doc.nodes.map((n) => [n.id, 0]));
  for (const wire of [...doc.wires].sort((a, b) => portRank(a) - portRank(b))) {
    if (!outs.has(wire.from) || !indegree.has(wire.to)) continue;
    outs.get(wire.from)?.push(wire.to);
    indegree.set(wire.to, (indegree.get(wire.to) ?? 0) + 1);
  }
  const roots = [
    ...doc.nodes.filter((n) => n.type === 'trigger'),
    ...doc.nodes.filter((n) => n.type !== 'trigger'),
  ]
    .map((n) => n.id)
    .filter((id) => indegree.get(id) === 0);

  // Rows: the longest path from a root (Kahn's order). Nodes on a cycle (a document written by hand)
  // go below the rest, one row each.
  const rank = new Map<string, number>();
  const waiting = new Map(indegree);
  const queue = [...roots];
  for (const id of roots) rank.set(id, 0);
  for (let i = 0; i < queue.length; i++) {
    const at = queue[i] as string;
    for (const next of outs.get(at) ?? []) {
      rank.set(next, Math.max(rank.get(next) ?? 0, (rank.get(at) ?? 0) + 1));
      const left = (waiting.get(next) ?? 1) - 1;
      waiting.set(next, left);
      if (left === 0) queue.push(next);
    }
  }
  const ranked = new Set(queue);
  let deepest = Math.max(-1, ...rank.values());
  for (const node of doc.nodes) if (!ranked.has(node.id)) rank.set(node.id, ++deepest);

  // Order in a row: first met by a depth-first walk from the roots, out wires in port order.
  const rows = new Map<number, string[]>();
  const seen = new Set<string>();
  const stack = [...roots, ...doc.nodes.map((n) => n.id)].reverse();
  while (stack.length) {
    const id = stack.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    const row = rank.get(id) ?? 0;
    const ids = rows.get(row);
    if (ids) ids.push(id);
    else rows.set(row, [id]);
    stack.push(...[...(outs.get(id) ?? [])].reverse());
  }

  const widest = Math.max(1, ...[...rows.values()].map((r) => r.length));
  const placed = new Map<string, Position>();
  for (const [row, ids] of rows) {
    const offset = ((widest - ids.length) * (NODE_WIDTH + NODE_GAP)) / 2;
    ids.forEach((id, i) =>
      placed.set(id, {
        x: Math.round(MARGIN + offset + i * (NODE_WIDTH + NODE_GAP)),
        y: MARGIN + row * (NODE_HEIGHT + RANK_GAP),
      }),
    );
  }
  return placed;
}
