// The one way a page says that a request failed, in the reader's language. The browser's own words for a
// request that never left ("Failed to fetch", "Load failed", "NetworkError when attempting…") are English
// and differ between browsers, so no page shows an error's message unless the API wrote it.
import type { TFunction } from 'i18next';
import { ApiError, Unreached } from './client';

/** A failed request as a sentence: the API's own (already in the reader's language, under its reason
 * code), the catalog's `unreached` when the API was never reached, a general sentence for anything else.
 * `unreached` lets a page say what could not be done, e.g. 'ui_run_journal_more_failed'. */
export function failureSentence(failure: unknown, t: TFunction, unreached = 'ui_error_network'): string {
  if (failure instanceof ApiError && failure.message) return failure.message;
  if (failure instanceof Unreached) return t(unreached);
  return t('ui_error_unexpected');
}
