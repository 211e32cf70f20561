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
