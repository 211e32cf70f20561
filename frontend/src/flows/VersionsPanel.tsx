// The flow's versions, newest first, with who saved each when: open an old one read-only, go back to
// the newest, or restore an old one as the next version (with the edit right on the flow).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchVersionDocument, flowKeys, saveFlow, versionsQuery } from '../api/flows';
import { failureSentence } from '../api/failure';
import { formatMoment } from '../i18n/i18n';
import type { FlowDocument } from './document';
import { unsaved, useEditor } from './store';
import { useCompare } from './compare';
import { reopen } from './open';
import { useRights } from '../runs/rights';

export function VersionsPanel({ flowId }: { flowId: number }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const { version: newest, viewing, savedDoc, view } = useEditor();
  const compare = useCompare((s) => s.compare);
  const edits = useRights()('edit', flowId);
  const versions = useQuery(versionsQuery(flowId));

  const [failed, setFailed] = useState<string | null>(null);

  async function restore(number: number) {
    if (
      unsaved(useEditor.getState()) &&
      !window.confirm(t('ui_versions_restore_discard', { version: number }))
    )
      return;
    setFailed(null);
    try {
      await saveFlow(flowId, await fetchVersionDocument(flowId, number), newest ?? 1);
    } catch (failure) {
      // A newer version saved meanwhile (409 flow_version_stale, who and when), or no server.
      setFailed(failureSentence(failure, t));
      return;
    }
    await queries.invalidateQueries({ queryKey: flowKeys.versions(flowId) });
    await queries.invalidateQueries({ queryKey: flowKeys.list });
    try {
      await reopen(queries, flowId); // the author asked for it: it replaces what the canvas held
    } catch (failure) {
      // Restored, but the newest could not be fetched: the canvas keeps what it held, and says why.
      setFailed(failureSentence(failure, t));
    }
  }

  // Open (read-only) or Compare: the version is fetched first, and a failure is said here, not dropped.
  async function read(number: number, then: (doc: FlowDocument) => void) {
    setFailed(null);
    try {
      then(await fetchVersionDocument(flowId, number));
    } catch (failure) {
      setFailed(failureSentence(failure, t));
    }
  }

  return (
    <section className="versions" aria-labelledby="versions-title">
      <h2 id="versions-title">{t('ui_versions_title')}</h2>
      {viewing !== null && (
        <button type="button" onClick={() => view(null, savedDoc)}>
          {t('ui_versions_back')}
        </button>
      )}
      {versions.error && <p role="alert">{failureSentence(versions.error, t)}</p>}
      {failed && <p role="alert">{failed}</p>}
      <ul>
        {versions.data?.versions.map((v) => (
          <li key={v.version}>
            {t('ui_versions_entry', {
              version: v.version,
              user: v.created_by ?? '?',
              when: formatMoment(v.created_at),
            })}
            {v.version !== newest && (
              <span className="row">
                <button type="button" onClick={() => void read(v.version, (doc) => view(v.version, doc))}>
                  {t('ui_versions_open', { version: v.version })}
                </button>
                <button type="button" onClick={() => void read(v.version, (doc) => compare(v.version, doc))}>
                  {t('ui_versions_compare', { version: v.version })}
                </button>
                {edits && (
                  <button type="button" onClick={() => void restore(v.version)}>
                    {t('ui_versions_restore', { version: v.version })}
                  </button>
                )}
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
