// The flows page: every flow the user may read, newest first, with its trigger, newest version, who
// changed it when and how its last run went; create, rename, duplicate, import and export, each offered
// only to those whose rights allow it (creating, importing and duplicating take edit everywhere). New flow
// asks for a name and opens the editor on a flow that is saved only by its first Save; so does a template.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { createFlow, flowKeys, flowsQuery } from '../api/flows';
import { failureSentence } from '../api/failure';
import { emptyDocument, type FlowDocument } from './document';
import { FlowRow } from './FlowRow';
import { NameDialog } from './NameDialog';
import { Templates } from './Templates';
import { useEditor } from './store';
import { useRights } from '../runs/rights';

export function FlowsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const may = useRights();
  const creates = may('edit');
  const [message, setMessage] = useState<string | null>(null);
  const [naming, setNaming] = useState(false);
  const flows = useQuery(flowsQuery);

  async function create(doc: FlowDocument) {
    try {
      await createFlow(doc);
      await queries.invalidateQueries({ queryKey: flowKeys.list });
      setMessage(t('ui_flows_created', { name: doc.name }));
    } catch (failure) {
      setMessage(failureSentence(failure, t));
    }
  }

  async function importFile(file: File) {
    try {
      await create(JSON.parse(await file.text()) as FlowDocument);
    } catch {
      setMessage(t('ui_flows_import_not_json', { file: file.name }));
    }
  }

  return (
    <section className="page">
      <h1>{t('ui_flows_title')}</h1>
      {creates && (
        <div className="row">
          <button type="button" className="primary" onClick={() => setNaming(true)}>
            {t('ui_flows_create')}
          </button>
          <label className="file-button">
            {t('ui_flows_import')}
            <input
              type="file"
              accept="application/json,.json"
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) void importFile(file);
                e.target.value = '';
              }}
            />
          </label>
        </div>
      )}
      {naming && (
        <NameDialog
          title="ui_flows_new_title"
          confirm="ui_flows_new_open"
          name=""
          onDone={async (name) => {
            useEditor.getState().start(emptyDocument(name));
            await navigate('/flows/new');
          }}
          onClose={() => setNaming(false)}
        />
      )}
      <p role="status">{message}</p>
      {flows.error && <p role="alert">{failureSentence(flows.error, t)}</p>}
      <table className="flows">
        <thead>
          <tr>
            <th scope="col">{t('ui_flows_name')}</th>
            <th scope="col">{t('ui_flows_version')}</th>
            <th scope="col">{t('ui_flows_trigger')}</th>
            <th scope="col">{t('ui_flows_last_run')}</th>
            <th scope="col">{t('ui_flows_changed')}</th>
            <th scope="col">{t('ui_flows_actions')}</th>
          </tr>
        </thead>
        <tbody>
          {flows.data?.flows.map((flow) => (
            <FlowRow key={flow.id} flow={flow} onMessage={setMessage} onDuplicate={creates ? create : null} />
          ))}
        </tbody>
      </table>
      {flows.data?.flows.length === 0 && <p>{t('ui_flows_empty')}</p>}
      {creates && <Templates />}
      <p className="hint">
        <Link to="/runs">{t('ui_nav_runs')}</Link>
      </p>
    </section>
  );
}
