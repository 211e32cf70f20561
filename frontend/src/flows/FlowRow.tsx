// One row of the flows page, with its rename (edit on the flow; no new version: PATCH), duplicate (edit
// everywhere: it makes a flow) and export actions. On a phone the row is a card, each cell named by its column (data-label).
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { fetchFlowDocument, flowKeys, type FlowSummary } from '../api/flows';
import { failureSentence } from '../api/failure';
import { formatMoment } from '../i18n/i18n';
import type { FlowDocument } from './document';
import { nameProblem } from './NameDialog';
import { renameFlow } from './names';
import { useRights } from '../runs/rights';
import { STATUS_KEYS } from '../runs/format';

// Catalog keys of what the row shows (written out for the catalog guard).
const TRIGGERS: Record<string, string> = {
  manual: 'ui_choice_kind_manual',
  webhook: 'ui_choice_kind_webhook',
  schedule: 'ui_choice_kind_schedule',
};

interface Props {
  flow: FlowSummary;
  onMessage: (message: string) => void;
  /** null: the user may not create flows, so no Duplicate. */
  onDuplicate: ((doc: FlowDocument) => Promise<void>) | null;
}

export function FlowRow({ flow, onMessage, onDuplicate }: Props) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const may = useRights();
  const [renaming, setRenaming] = useState<string | null>(null);
  const when = flow.changed_at ? formatMoment(flow.changed_at) : '';

  async function rename(name: string) {
    const wrong = nameProblem(name);
    if (wrong) {
      onMessage(t(wrong.key, wrong.params));
      return;
    }
    try {
      await renameFlow(flow.id, { name: name.trim() });
      setRenaming(null);
      await queries.invalidateQueries({ queryKey: flowKeys.list });
      await queries.invalidateQueries({ queryKey: flowKeys.one(flow.id) });
    } catch (failure) {
      onMessage(failureSentence(failure, t));
    }
  }

  async function exportFlow() {
    const doc = await fetchFlowDocument(flow.id);
    const url = URL.createObjectURL(new Blob([JSON.stringify(doc, null, 2)], { type: 'application/json' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `${flow.name.replace(/[^\p{L}\p{N}_-]+/gu, '-')}.json`;
    link.click();
    URL.revokeObjectURL(url);
  }

  return (
    <tr>
      <td data-label={t('ui_flows_name')}>
        {renaming === null ? (
          <Link to={`/flows/${flow.id}`} translate="no">
            {flow.name}
          </Link>
        ) : (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void rename(renaming);
            }}
          >
            <input
              aria-label={t('ui_flows_new_name_label')}
              value={renaming}
              onChange={(e) => setRenaming(e.target.value)}
              autoFocus
            />
            <button type="submit">{t('ui_flows_rename_save')}</button>
          </form>
        )}
      </td>
      <td data-label={t('ui_flows_version')}>{flow.version}</td>
      <td data-label={t('ui_flows_trigger')}>
        {flow.trigger_kind ? t(TRIGGERS[flow.trigger_kind] ?? flow.trigger_kind) : ''}
      </td>
      <td data-label={t('ui_flows_last_run')}>
        {flow.last_run_status
          ? t(STATUS_KEYS[flow.last_run_status] ?? flow.last_run_status)
          : t('ui_flows_never_run')}
      </td>
      <td data-label={t('ui_flows_changed')}>
        {flow.changed_by ? t('ui_flows_changed_by', { user: flow.changed_by, when }) : when}
      </td>
      <td className="actions" data-label={t('ui_flows_actions')}>
        {may('edit', flow.id) && (
          <button
            type="button"
            onClick={() => setRenaming(flow.name)}
            aria-label={t('ui_flows_rename_label', { name: flow.name })}
          >
            {t('ui_flows_rename')}
          </button>
        )}
        {onDuplicate && (
          <button
            type="button"
            onClick={() =>
              void fetchFlowDocument(flow.id).then((doc) =>
                onDuplicate({ ...doc, name: t('ui_flows_copy_name', { name: flow.name }) }),
              )
            }
            aria-label={t('ui_flows_duplicate_label', { name: flow.name })}
          >
            {t('ui_flows_duplicate')}
          </button>
        )}
        <button
          type="button"
          onClick={() => void exportFlow()}
          aria-label={t('ui_flows_export_label', { name: flow.name })}
        >
          {t('ui_flows_export')}
        </button>
      </td>
    </tr>
  );
}
