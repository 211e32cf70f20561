// The journal as a timeline: each line a sentence in the reader's language (the API translates), the
// data behind it folded out on demand. User text is shown as text, never as markup.
import { useTranslation } from 'react-i18next';
import { when } from './format';
import type { JournalLine } from './types';

export function Journal({ lines }: { lines: JournalLine[] }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="journal-title">
      <h2 id="journal-title">{t('ui_run_journal')}</h2>
      <ol className="journal">
        {lines.map((line) => (
          <li key={line.seq} data-code={line.code}>
            <time dateTime={line.at}>{when(line.at)}</time> <span className="sentence">{line.message}</span>
            {Object.keys(line.data).length > 0 && (
              <details>
                <summary>{t('ui_run_data')}</summary>
                <pre>{JSON.stringify(line.data, null, 2)}</pre>
              </details>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
