// The open flow: its document, the history of documents (undo/redo), the selection, and the last refused
// gesture. React Flow's nodes and wires are derived from the document, never kept beside it.
import { create } from 'zustand';
import type { Edit, FlowDocument, Refusal } from './document';

const HISTORY = 200;

interface Draft {
  doc: FlowDocument;
  past: FlowDocument[];
  future: FlowDocument[];
}

/** Edits not saved yet, shown or put aside while an old version is read. */
export function unsaved(s: { doc: FlowDocument; savedDoc: FlowDocument; draft: Draft | null }): boolean {
  return (s.draft?.doc ?? s.doc) !== s.savedDoc;
}

/** What a new flow's document is compared with: nothing saved yet, so it counts as unsaved until Save. */
const NOTHING_SAVED: FlowDocument = { format: 'flowyard.flow/1', name: '', nodes: [], wires: [] };

/** The same documents with a new name and description; a document met twice stays one object, so that
 * `doc === savedDoc` (nothing unsaved) still holds after a rename. */
function renaming(name: string, description: string | null) {
  const done = new Map<FlowDocument, FlowDocument>();
  return (doc: FlowDocument): FlowDocument => {
    if (doc === NOTHING_SAVED) return doc;
    let named = done.get(doc);
    if (!named) {
      const { description: _old, ...rest } = doc;
      named = description ? { ...rest, name, description } : { ...rest, name };
      done.set(doc, named);
    }
    return named;
  };
}

interface EditorState {
  /** The saved flow being edited; null for a new flow (`fresh`) or before any is opened. */
  flowId: number | null;
  /** A new flow, not saved yet (from New flow or a template): its first Save creates it. */
  fresh: boolean;
  version: number | null;
  doc: FlowDocument;
  savedDoc: FlowDocument;
  past: FlowDocument[];
  future: FlowDocument[];
  selected: string[];
  refusal: Refusal | null;
  /** An old version shown read-only (its number), or null while editing the newest. */
  viewing: number | null;
  /** While an old version is shown: the edits put aside, with their history, for the way back. */
  draft: Draft | null;
  /** An old version shown read-only, the edits put aside; `null` goes back to them (or to `doc`). */
  view: (version: number | null, doc: FlowDocument) => void;
  load: (flowId: number, version: number, doc: FlowDocument) => void;
  /** A newer version saved while an old one is read: the newest now, what "back" returns to. */
  beneath: (version: number, doc: FlowDocument) => void;
  /** An edit that enters the history (or a refusal, which changes nothing but says why). */
  apply: (edit: Edit | FlowDocument) => void;
  /** A change inside a gesture (a drag): no history entry; `checkpoint` made one when it began. */
  replace: (doc: FlowDocument) => void;
  checkpoint: () => void;
  undo: () => void;
  redo: () => void;
  select: (ids: string[]) => void;
  saved: (version: number) => void;
  /** A new flow to draw, nothing saved until `created`. */
  start: (doc: FlowDocument) => void;
  /** The new flow's first Save made it flow `flowId`, version `version`. */
  created: (flowId: number, version: number) => void;
  /** The flow's name and description changed without a new version (PATCH): in every document held, so
   * neither an undo nor the next save brings the old name back. */
  renamed: (name: string, description: string | null) => void;
  /** The document opened (`from`) laid out anew, as if it had opened so; nothing if it was edited since. */
  relaid: (from: FlowDocument, to: FlowDocument) => void;
}

export const useEditor = create<EditorState>((set) => ({
  flowId: null,
  fresh: false,
  version: null,
  doc: { format: 'flowyard.flow/1', name: '', nodes: [], wires: [] },
  savedDoc: { format: 'flowyard.flow/1', name: '', nodes: [], wires: [] },
  past: [],
  future: [],
  selected: [],
  refusal: null,
  viewing: null,
  draft: null,
  view: (viewing, doc) =>
    set((s) => {
      const shown = { viewing, selected: [], refusal: null };
      if (viewing !== null)
        return {
          ...shown,
          doc,
          past: [],
          future: [],
          draft: s.draft ?? { doc: s.doc, past: s.past, future: s.future },
        };
      return { ...shown, doc, past: [], future: [], ...s.draft, draft: null };
    }),
  load: (flowId, version, doc) =>
    set({
      flowId,
      fresh: false,
      version,
      doc,
      savedDoc: doc,
      past: [],
      future: [],
      selected: [],
      refusal: null,
      viewing: null,
      draft: null,
    }),
  // The newest becomes what is put aside, as if opened before the old version was: `unsaved` compares it
  // with `savedDoc` (not with the old version on screen), and "Back" shows it.
  beneath: (version, doc) =>
    set((s) =>
      s.viewing === null || unsaved(s)
        ? {}
        : { version, savedDoc: doc, draft: { doc, past: [], future: [] } },
    ),
  apply: (edit) =>
    set((s) => {
      if ('refused' in edit) return { refusal: edit.refused };
      const doc = 'doc' in edit ? edit.doc : edit;
      if (doc === s.doc) return { refusal: null };
      return { doc, past: [...s.past, s.doc].slice(-HISTORY), future: [], refusal: null };
    }),
  replace: (doc) => set({ doc }),
  checkpoint: () => set((s) => ({ past: [...s.past, s.doc].slice(-HISTORY), future: [] })),
  undo: () =>
    set((s) => {
      const previous = s.past.at(-1);
      if (!previous) return {};
      return { doc: previous, past: s.past.slice(0, -1), future: [s.doc, ...s.future], refusal: null };
    }),
  redo: () =>
    set((s) => {
      const next = s.future[0];
      if (!next) return {};
      return { doc: next, past: [...s.past, s.doc], future: s.future.slice(1), refusal: null };
    }),
  select: (ids) =>
    set((s) =>
      ids.length === s.selected.length && ids.every((id, i) => s.selected[i] === id) ? {} : { selected: ids },
    ),
  saved: (version) => set((s) => ({ version, savedDoc: s.doc })),
  start: (doc) =>
    set({
      flowId: null,
      fresh: true,
      version: null,
      doc,
      savedDoc: NOTHING_SAVED,
      past: [],
      future: [],
      selected: [],
      refusal: null,
      viewing: null,
      draft: null,
    }),
  created: (flowId, version) => set((s) => ({ flowId, fresh: false, version, savedDoc: s.doc })),
  renamed: (name, description) =>
    set((s) => {
      const named = renaming(name, description);
      const draft = s.draft && { ...s.draft, doc: named(s.draft.doc), past: s.draft.past.map(named) };
      return {
        doc: named(s.doc),
        savedDoc: named(s.savedDoc),
        past: s.past.map(named),
        future: s.future.map(named),
        draft: draft && { ...draft, future: draft.future.map(named) },
      };
    }),
  relaid: (from, to) =>
    set((s) => {
      if (s.doc !== from || s.past.length) return {};
      if (s.fresh) return { doc: to }; // a new flow: still unsaved, laid out anew
      return s.savedDoc === from ? { doc: to, savedDoc: to } : {};
    }),
}));
