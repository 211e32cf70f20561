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

interface EditorState {
  flowId: number | null;
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
  /** The document opened (`from`) laid out anew, as if it had opened so; nothing if it was edited since. */
  relaid: (from: FlowDocument, to: FlowDocument) => void;
}

export const useEditor = create<EditorState>((set) => ({
  flowId: null,
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
  relaid: (from, to) =>
    set((s) => (s.doc === from && s.savedDoc === from && !s.past.length ? { doc: to, savedDoc: to } : {})),
}));
