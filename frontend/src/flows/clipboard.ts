// Copy and paste of a selection: the nodes and the wires between them, pasted with fresh ids, shifted so
// the copy does not hide the original. Templates that name a copied node's id keep naming the original:
// ids are the author's words, and a silent rewrite of their text would surprise more than it helps.
import { freshId, type Edit, type FlowDocument, type FlowNode, type Wire } from './document';

export interface Clip {
  nodes: FlowNode[];
  wires: Wire[];
}

export const PASTE_OFFSET = 40;

/** The selected nodes and the wires that have both ends among them; null when nothing is selected. */
export function copySelection(doc: FlowDocument, ids: string[]): Clip | null {
  const chosen = new Set(ids);
  const nodes = doc.nodes.filter((n) => chosen.has(n.id));
  if (!nodes.length) return null;
  const wires = doc.wires.filter((w) => chosen.has(w.from) && chosen.has(w.to));
  return structuredClone({ nodes, wires });
}

/** The clip added to `doc` under fresh ids, and those ids (to select them); a trigger is refused when the
 * document has one, as when it is added from the palette. */
export function pasteClip(doc: FlowDocument, clip: Clip): { edit: Edit; ids: string[] } {
  const trigger = doc.nodes.find((n) => n.type === 'trigger');
  const copiedTrigger = clip.nodes.find((n) => n.type === 'trigger');
  if (trigger && copiedTrigger)
    return {
      edit: { refused: { code: 'trigger_multiple', params: { node: copiedTrigger.id, first: trigger.id } } },
      ids: [],
    };
  let next = doc;
  const renamed = new Map<string, string>();
  for (const node of clip.nodes) {
    const id = freshId(next, node.type);
    renamed.set(node.id, id);
    const position = node.position && {
      x: node.position.x + PASTE_OFFSET,
      y: node.position.y + PASTE_OFFSET,
    };
    const copy: FlowNode = { ...structuredClone(node), id, ...(position ? { position } : {}) };
    next = { ...next, nodes: [...next.nodes, copy] };
  }
  const wires = clip.wires.map((w) => ({
    ...w,
    from: renamed.get(w.from) ?? w.from,
    to: renamed.get(w.to) ?? w.to,
  }));
  return { edit: { doc: { ...next, wires: [...next.wires, ...wires] } }, ids: [...renamed.values()] };
}
