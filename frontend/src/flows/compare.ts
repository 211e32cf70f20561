// A visual diff of two documents: the nodes added, removed and changed (with the settings that changed),
// and the wires added and removed. The canvas marks the added and changed nodes; the panel lists all.
import { create } from 'zustand';
import { portOf, type FlowDocument, type FlowNode, type Wire } from './document';

export interface NodeChange {
  id: string;
  /** The config keys whose values differ, then `type` or `label` when those do. */
  fields: string[];
}
export interface DocumentDiff {
  added: string[];
  removed: string[];
  changed: NodeChange[];
  wiresAdded: Wire[];
  wiresRemoved: Wire[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const wireKey = (w: Wire) => `${w.from}\u0000${portOf(w)}\u0000${w.to}`;

function changedFields(before: FlowNode, after: FlowNode): string[] {
  const keys = [...new Set([...Object.keys(before.config), ...Object.keys(after.config)])].sort();
  const fields = keys.filter((key) => !same(before.config[key], after.config[key]));
  if (before.type !== after.type) fields.push('type');
  if ((before.label ?? '') !== (after.label ?? '')) fields.push('label');
  return fields;
}

/** What changed from `before` to `after`; positions are not changes. */
export function diffDocuments(before: FlowDocument, after: FlowDocument): DocumentDiff {
  const old = new Map(before.nodes.map((n) => [n.id, n]));
  const now = new Map(after.nodes.map((n) => [n.id, n]));
  const changed: NodeChange[] = [];
  for (const node of after.nodes) {
    const was = old.get(node.id);
    const fields = was ? changedFields(was, node) : [];
    if (fields.length) changed.push({ id: node.id, fields });
  }
  const oldWires = new Set(before.wires.map(wireKey));
  const newWires = new Set(after.wires.map(wireKey));
  return {
    added: after.nodes.filter((n) => !old.has(n.id)).map((n) => n.id),
    removed: before.nodes.filter((n) => !now.has(n.id)).map((n) => n.id),
    changed,
    wiresAdded: after.wires.filter((w) => !oldWires.has(wireKey(w))),
    wiresRemoved: before.wires.filter((w) => !newWires.has(wireKey(w))),
  };
}

/** The canvas's marks: each added or changed node's kind of change. */
export function diffMarks(diff: DocumentDiff): Map<string, 'added' | 'changed'> {
  const marks = new Map<string, 'added' | 'changed'>();
  for (const id of diff.added) marks.set(id, 'added');
  for (const change of diff.changed) marks.set(change.id, 'changed');
  return marks;
}

interface CompareState {
  /** The version the canvas is compared with, and its document; null when not comparing. */
  version: number | null;
  base: FlowDocument | null;
  compare: (version: number, base: FlowDocument) => void;
  stop: () => void;
}

export const useCompare = create<CompareState>((set) => ({
  version: null,
  base: null,
  compare: (version, base) => set({ version, base }),
  stop: () => set({ version: null, base: null }),
}));
