// Ctrl+Z / Ctrl+Shift+Z (and Cmd on a Mac) anywhere in the editor, except while typing in a field, where
// the browser's own undo of the text is what the author means.
import { useEffect } from 'react';
import { copySelection, pasteClip, type Clip } from './clipboard';
import { useEditor } from './store';

// The editor's own clipboard: a copied selection stays in this tab (the system clipboard is left alone).
let clip: Clip | null = null;

/** Ctrl+C / Ctrl+V (Cmd on a Mac) copy the selected nodes and paste them, outside text fields. */
export function useCopyPasteKeys(readOnly: boolean): void {
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable=true]')) return;
      if (!(event.ctrlKey || event.metaKey) || event.shiftKey) return;
      const editor = useEditor.getState();
      const key = event.key.toLowerCase();
      if (key === 'c') {
        clip = copySelection(editor.doc, editor.selected) ?? clip;
      } else if (key === 'v' && clip && !readOnly) {
        event.preventDefault();
        const { edit, ids } = pasteClip(editor.doc, clip);
        editor.apply(edit);
        if (ids.length) editor.select(ids);
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [readOnly]);
}

export function useUndoKeys(): void {
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable=true]')) return;
      if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== 'z') return;
      event.preventDefault();
      if (event.shiftKey) useEditor.getState().redo();
      else useEditor.getState().undo();
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/** The browser asks before a tab with unsaved changes is closed or reloaded (its own words: browsers no
 * longer show a page's text there). */
export function useLeaveGuard(dirty: boolean, question: string): void {
  useEffect(() => {
    if (!dirty) return;
    function onLeave(event: BeforeUnloadEvent) {
      event.preventDefault();
    }
    // A link to another page of the app asks first, in the author's language. It runs before the router's
    // own handler (window, capture phase), which leaves a click whose default was prevented alone.
    function onClick(event: MouseEvent) {
      const link = (event.target as HTMLElement | null)?.closest('a[href]');
      if (!(link instanceof HTMLAnchorElement) || link.target === '_blank') return;
      if (link.origin !== window.location.origin || link.pathname === window.location.pathname) return;
      if (!window.confirm(question)) event.preventDefault();
    }
    window.addEventListener('beforeunload', onLeave);
    window.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onLeave);
      window.removeEventListener('click', onClick, true);
    };
  }, [dirty, question]);
}
