// Auto-layout: dagre top to bottom (place.ts), or lane by lane for a flow with a parallel (laneLayout.ts).
import type { FlowDocument, Position } from '../flows/document';
import { layoutLanes } from './laneLayout';
import { place } from './place';

export { NODE_HEIGHT, NODE_WIDTH, type Size } from './cardSize';

/** Where every node goes. A flow with a parallel is laid out lane by lane (laneLayout.ts). */
export function layout(doc: FlowDocument): Map<string, Position> {
  return doc.nodes.some((n) => n.type === 'parallel') ? layoutLanes(doc) : place(doc);
}
