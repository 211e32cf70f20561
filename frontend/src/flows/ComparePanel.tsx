// The diff of the canvas against another version: what was added, removed and changed, the changed
// settings named, the wires added and removed. The canvas marks the added and changed nodes.
import { useTranslation } from 'react-i18next';
import { portOf, type Wire } from './document';
import type { DocumentDiff } from './compare';
import { useCompare } from './compare';

const wireText = (w: Wire) => `${w.from} → ${w.to} (${portOf(w)})`;

export function ComparePanel({ diff }: { diff: DocumentDiff }) {
  const { t } = useTranslation();
  const { version, stop } = useCompare();
  const empty =
    !diff.added.length &&
    !diff.removed.length &&
    !diff.changed.length &&
    !diff.wiresAdded.length &&
    !diff.wiresRemoved.length;
  return (
    <section className="compare" aria-labelledby="compare-title">
      <h2 id="compare-title">{t('ui_compare_title', { version })}</h2>
      <button type="button" onClick={stop}>
        {t('ui_compare_stop')}
      </button>
      {empty && <p>{t('ui_compare_same')}</p>}
      <dl>
        {diff.added.length > 0 && (
          <>
            <dt>{t('ui_compare_added')}</dt>
            <dd className="diff-added" translate="no">
              {diff.added.join(', ')}
            </dd>
          </>
        )}
        {diff.removed.length > 0 && (
          <>
            <dt>{t('ui_compare_removed')}</dt>
            <dd className="diff-removed" translate="no">
              {diff.removed.join(', ')}
            </dd>
          </>
        )}
        {diff.changed.map((change) => (
          <div key={change.id}>
            <dt>{t('ui_compare_changed', { node: change.id })}</dt>
            <dd className="diff-changed" translate="no">
              {change.fields.join(', ')}
            </dd>
          </div>
        ))}
        {diff.wiresAdded.length > 0 && (
          <>
            <dt>{t('ui_compare_wires_added')}</dt>
            <dd translate="no">{diff.wiresAdded.map(wireText).join('; ')}</dd>
          </>
        )}
        {diff.wiresRemoved.length > 0 && (
          <>
            <dt>{t('ui_compare_wires_removed')}</dt>
            <dd translate="no">{diff.wiresRemoved.map(wireText).join('; ')}</dd>
          </>
        )}
      </dl>
    </section>
  );
}
