// Where the run page draws each node: where the author left it in the editor when the pinned version has
// every position, otherwise the editor's own auto-layout (canvas/layout.ts: top to bottom, siblings in
// port order, a parallel lane by lane). Either way the run reads like the flow its author drew.
import type { FlowDocument } from '../flows/document';
import { layout } from '../canvas/layout';
import type { PinnedDocument } from '../api/runs';

/** The pinned version as the editor's document, every node with a position. */
export function runPlaces(pinned: PinnedDocument): FlowDocument {
  const doc: FlowDocument = {
    format: 'flowyard.flow/1',
    name: '',
    nodes: pinned.nodes.map((node) => ({ ...node, config: node.config ?? {} })),
    wires: pinned.wires,
  };
  if (doc.nodes.every((node) => node.position)) return doc;
  const at = layout(doc);
  return { ...doc, nodes: doc.nodes.map((node) => ({ ...node, position: at.get(node.id) })) };
}
