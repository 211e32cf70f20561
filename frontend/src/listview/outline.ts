// The list view's edits beyond the graph's own: add a node after the selected one (wired from a chosen
// port), and move a node up or down the document's order (which breaks ties in the list's order).
import { addNode, connect, type Edit, type FlowDocument } from '../flows/document';

export function addAfter(
  doc: FlowDocument,
  after: string,
  port: string,
  type: string,
): Edit & { id?: string } {
  const anchor = doc.nodes.find((n) => n.id === after);
  const position = anchor?.position ? { x: anchor.position.x, y: anchor.position.y + 150 } : { x: 0, y: 0 };
  const added = addNode(doc, type, position);
  if ('refused' in added) return added;
  const id = added.doc.nodes.at(-1)?.id as string;
  const wired = connect(added.doc, after, port, id);
  return 'refused' in wired ? wired : { doc: wired.doc, id };
}

export function moveInOrder(doc: FlowDocument, id: string, by: -1 | 1): FlowDocument {
  const at = doc.nodes.findIndex((n) => n.id === id);
  const to = at + by;
  if (at < 0 || to < 0 || to >= doc.nodes.length) return doc;
  const nodes = [...doc.nodes];
  [nodes[at], nodes[to]] = [nodes[to] as (typeof nodes)[number], nodes[at] as (typeof nodes)[number]];
  return { ...doc, nodes };
}
