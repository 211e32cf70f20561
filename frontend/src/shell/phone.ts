// Whether the screen is a phone's: narrower than 48rem (768 px at the browser's default text size), the
// threshold of app.css's "Phones" rules and of the editor's read-only list (docs/editor.md, "On a phone").
// Followed as it changes: a tablet turned sideways may cross it.
import { useSyncExternalStore } from 'react';

export const PHONE_QUERY = '(max-width: 47.99rem)';

function subscribe(changed: () => void): () => void {
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener('change', changed);
  return () => query.removeEventListener('change', changed);
}

export function usePhone(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(PHONE_QUERY).matches);
}
