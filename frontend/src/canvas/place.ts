// dagre on a document's nodes and wires, top to bottom, wires in document order, so the canvas reads like
// the walk. Apart from layout.ts so that the lanes' layout (laneLayout.ts), which layout.ts calls, can
// place its blocks with it without importing layout.ts back.
import dagre from '@dagrejs/dagre';
import { portOf, portsOf, type FlowDocument, type Position, type Wire } from '../flows/document';
import { NODE_HEIGHT, NODE_WIDTH, type Size } from './cardSize';

/** dagre on the document's nodes and wires; `sizes` gives some nodes (a parallel's block) their own size. */
export function place(doc: FlowDocument, sizes?: Map<string, Size>): Map<string, Position> {
  const size = (id: string) => sizes?.get(id) ?? { width: NODE_WIDTH, height: NODE_HEIGHT };
  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: 'TB', nodesep: 60, ranksep: 70, marginx: 20, marginy: 20 });
  graph.setDefaultEdgeLabel(() => ({}));
  // Siblings are placed in port order (approve left of reject, true left of false), so wires leave their
  // ports without crossing: nodes go in by port order, wires in reverse (dagre's first-seen order puts
  // the last edge added leftmost; the unit test holds this for both orders of the document's wires).
  const byId = new Map(doc.nodes.map((n) => [n.id, n]));
  const ranks = new Map(doc.wires.map((w) => [w, portsOf(byId.get(w.from)).indexOf(portOf(w))]));
  const rank = (wire: Wire) => ranks.get(wire) ?? 0;
  const wires = [...doc.wires].sort((a, b) => rank(a) - rank(b));
  const order = [
    ...new Set([
      ...doc.nodes.filter((n) => n.type === 'trigger').map((n) => n.id),
      ...wires.map((w) => w.to),
      ...doc.nodes.map((n) => n.id),
    ]),
  ];
  for (const id of order) graph.setNode(id, size(id));
  for (const wire of [...wires].reverse()) graph.setEdge(wire.from, wire.to);
  dagre.layout(graph);
  const placed = new Map<string, Position>();
  for (const node of doc.nodes) {
    const { x, y } = graph.node(node.id);
    // dagre gives centres; React Flow places by the top-left corner.
    const { width, height } = size(node.id);
    placed.set(node.id, { x: Math.round(x - width / 2), y: Math.round(y - height / 2) });
  }
  return placed;
}
