// Ctrl+Z / Ctrl+Shift+Z (and Cmd on a Mac) anywhere in the editor, except while typing in a field, where
// the browser's own undo of the text is what the author means.
import { useEffect } from 'react';
import { useEditor } from './store';

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
export function useLeaveGuard(dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return;
    function onLeave(event: BeforeUnloadEvent) {
      event.preventDefault();
    }
    window.addEventListener('beforeunload', onLeave);
    return () => window.removeEventListener('beforeunload', onLeave);
  }, [dirty]);
}
