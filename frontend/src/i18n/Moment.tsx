// A date and time as the reader reads it (formatMoment), marked translate="no": Intl wrote it in the
// reader's locale, so it is no text for the catalogs (tests/browser/pseudo_support.py reads it so).
import { formatMoment } from './i18n';

export function Moment({ iso }: { iso: string | null | undefined }) {
  if (!iso) return null;
  return (
    <time dateTime={iso} translate="no">
      {formatMoment(iso)}
    </time>
  );
}
