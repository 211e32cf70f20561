// Auto-layout with dagre: top to bottom, wires in document order, so the canvas reads like the walk.
import dagre from '@dagrejs/dagre';
import { PORTS, portOf, type FlowDocument, type Position, type Wire } from '../flows/document';

export const NODE_WIDTH = 220;
export const NODE_HEIGHT = 84;

export function layout(doc: FlowDocument): Map<string, Position> {
  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: 'TB', nodesep: 60, ranksep: 70, marginx: 20, marginy: 20 });
  graph.setDefaultEdgeLabel(() => ({}));
  // Siblings are placed in port order (approve left of reject, true left of false), so wires leave their
  // ports without crossing: nodes go in by port order, wires in reverse (dagre's first-seen order puts
  // the last edge added leftmost; the unit test holds this for both orders of the document's wires).
  const rank = (wire: Wire) =>
    (PORTS[doc.nodes.find((n) => n.id === wire.from)?.type ?? ''] ?? []).indexOf(portOf(wire));
  const wires = [...doc.wires].sort((a, b) => rank(a) - rank(b));
  const order = [
    ...new Set([
      ...doc.nodes.filter((n) => n.type === 'trigger').map((n) => n.id),
      ...wires.map((w) => w.to),
      ...doc.nodes.map((n) => n.id),
    ]),
  ];
  for (const id of order) graph.setNode(id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  for (const wire of [...wires].reverse()) graph.setEdge(wire.from, wire.to);
  dagre.layout(graph);
  const placed = new Map<string, Position>();
  for (const node of doc.nodes) {
    const { x, y } = graph.node(node.id);
    // dagre gives centres; React Flow places by the top-left corner.
    placed.set(node.id, { x: Math.round(x - NODE_WIDTH / 2), y: Math.round(y - NODE_HEIGHT / 2) });
  }
  return placed;
}
