// Ctrl+Z / Ctrl+Shift+Z (and Cmd on a Mac) anywhere in the editor, except while typing in a field, where
// the browser's own undo of the text is what the author means.
import { useCallback, useEffect } from 'react';
import { useBlocker, type Location } from 'react-router';
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

/** Leaving with unsaved changes asks first. Closing or reloading the tab: the browser's own dialog (its
 * own words: browsers no longer show a page's text there). Any navigation inside the app, by a link, the
 * browser's Back or Forward button or the code: the catalog's question, through react-router's blocker
 * (a Back is undone until the author answers). Going to the login page is never held: the session is
 * already gone by then (logout, or a 401). */
export function useLeaveGuard(dirty: boolean, question: string): void {
  const blocker = useBlocker(
    useCallback(
      ({ currentLocation, nextLocation }: { currentLocation: Location; nextLocation: Location }) =>
        dirty &&
        nextLocation.pathname !== currentLocation.pathname &&
        nextLocation.pathname !== '/login' &&
        // A new flow's first save moves to its address (Toolbar's `Created`): nothing is left unsaved.
        !(nextLocation.state as { created?: number } | null)?.created,
      [dirty],
    ),
  );
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (window.confirm(question)) blocker.proceed();
    else blocker.reset();
  }, [blocker, question]);
  useEffect(() => {
    if (!dirty) return;
    function onLeave(event: BeforeUnloadEvent) {
      event.preventDefault();
    }
    window.addEventListener('beforeunload', onLeave);
    return () => window.removeEventListener('beforeunload', onLeave);
  }, [dirty]);
}
