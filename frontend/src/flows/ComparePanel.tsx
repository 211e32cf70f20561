// The diff of the canvas against another version: what was added, removed and changed, the changed
// settings named, the wires added and removed. The canvas marks the added and changed nodes.
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { portLabel } from '../canvas/ports';
import { formatList } from '../i18n/format';
import { portOf, type FlowDocument, type Wire } from './document';
import type { DocumentDiff } from './compare';
import { useCompare } from './compare';
import { fieldTitle } from './findingText';
import { useEditor } from './store';

/** A changed setting by its title in the panel, never its key in the document. */
function settingTitle(t: TFunction, field: string): string {
  if (field === 'label') return t('ui_panel_label');
  if (field === 'type') return t('ui_run_effect_type');
  return fieldTitle(field, t);
}

/** A wire as one sentence, its port in the reader's words (as the canvas names it). */
function wireText(t: TFunction, doc: FlowDocument, wire: Wire): string {
  const from = doc.nodes.find((node) => node.id === wire.from);
  return t('ui_compare_wire', {
    source: wire.from,
    target: wire.to,
    port: portLabel(t, from, portOf(wire)),
  });
}

export function ComparePanel({ diff }: { diff: DocumentDiff }) {
  const { t } = useTranslation();
  const { version, stop } = useCompare();
  const doc = useEditor((s) => s.doc);
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
              {formatList(diff.added)}
            </dd>
          </>
        )}
        {diff.removed.length > 0 && (
          <>
            <dt>{t('ui_compare_removed')}</dt>
            <dd className="diff-removed" translate="no">
              {formatList(diff.removed)}
            </dd>
          </>
        )}
        {diff.changed.map((change) => (
          <div key={change.id}>
            <dt>{t('ui_compare_changed', { node: change.id })}</dt>
            <dd className="diff-changed">
              {formatList(change.fields.map((field) => settingTitle(t, field)))}
            </dd>
          </div>
        ))}
        {diff.wiresAdded.length > 0 && (
          <>
            <dt>{t('ui_compare_wires_added')}</dt>
            <dd>{formatList(diff.wiresAdded.map((w) => wireText(t, doc, w)))}</dd>
          </>
        )}
        {diff.wiresRemoved.length > 0 && (
          <>
            <dt>{t('ui_compare_wires_removed')}</dt>
            <dd>{formatList(diff.wiresRemoved.map((w) => wireText(t, doc, w)))}</dd>
          </>
        )}
      </dl>
    </section>
  );
}
