// The journal as a timeline: each line a sentence in the reader's language (the API translates), the
// data behind it folded out on demand. User text is shown as text, never as markup. A long journal comes
// a page at a time: `more` (null once every line is shown) asks for the next page.
import { useTranslation } from 'react-i18next';
import { when } from './format';
import type { JournalLine } from '../api/runs';

interface Props {
  lines: JournalLine[];
  more: (() => void) | null;
  loading: boolean;
  /** Why the last "next lines" failed, if it did: the button stays, to try again. */
  failed: string | null;
}

export function Journal({ lines, more, loading, failed }: Props) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="journal-title">
      <h2 id="journal-title">{t('ui_run_journal')}</h2>
      <ol className="journal">
        {lines.map((line) => (
          <li key={line.seq} data-code={line.code} data-seq={line.seq}>
            <time dateTime={line.at} translate="no">
              {when(line.at)}
            </time>{' '}
            <span className="sentence">{line.message}</span>
            {Object.keys(line.data).length > 0 && (
              <details>
                <summary>{t('ui_run_data')}</summary>
                <pre translate="no">{JSON.stringify(line.data, null, 2)}</pre>
              </details>
            )}
          </li>
        ))}
      </ol>
      {failed && <p role="alert">{failed}</p>}
      {more && (
        // Never disabled while the page loads: a disabled button drops the keyboard's focus.
        <button
          type="button"
          className="journal-more"
          aria-busy={loading}
          onClick={() => {
            if (!loading) more();
          }}
        >
          {t('ui_run_journal_more')}
        </button>
      )}
    </section>
  );
}
