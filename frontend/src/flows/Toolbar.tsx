// The editor's toolbar: the flow's name, undo/redo, layout, fit, the view switch, save and run.
import { useState } from 'react';
import type { ReactFlowInstance } from '@xyflow/react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api, ApiError, unwrap } from '../api/client';
import { layout } from '../canvas/layout';
import { moveNodes } from './document';
import type { Finding } from './findings';
import { useEditor } from './store';

interface Props {
  findings: Finding[];
  flow: ReactFlowInstance | null;
  view: 'canvas' | 'list';
  onView: (view: 'canvas' | 'list') => void;
}

export function Toolbar({ findings, flow, view, onView }: Props) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const { doc, savedDoc, past, future, flowId, version, apply, undo, redo } = useEditor();
  const [message, setMessage] = useState<string | null>(null);
  const [run, setRun] = useState<number | null>(null);
  const dirty = doc !== savedDoc;

  async function save() {
    setRun(null);
    if (findings.length > 0) {
      setMessage(t('ui_save_refused', { count: findings.length }));
      return;
    }
    try {
      const saved = unwrap(
        await api.PUT('/api/flows/{flow_id}', {
          params: { path: { flow_id: flowId ?? 0 } },
          body: doc as unknown as Record<string, never>,
        }),
      );
      useEditor.getState().saved(saved.version);
      setMessage(t('ui_save_done', { version: saved.version }));
      await queries.invalidateQueries({ queryKey: ['flows'] });
    } catch (failure) {
      setMessage(failure instanceof ApiError ? failure.message : t('ui_error_network'));
    }
  }

  async function start() {
    try {
      const started = unwrap(
        await api.POST('/api/flows/{flow_id}/runs', {
          params: { path: { flow_id: flowId ?? 0 } },
          body: { input: {} },
        }),
      );
      setRun(started.run);
      setMessage(null);
    } catch (failure) {
      setMessage(failure instanceof ApiError ? failure.message : t('ui_error_network'));
    }
  }

  return (
    <div className="toolbar" role="toolbar" aria-label={t('ui_toolbar_label')}>
      <h1>
        {doc.name} <span className="version">{t('ui_toolbar_version', { version: version ?? 0 })}</span>
        {dirty && <span className="dirty">{t('ui_toolbar_unsaved')}</span>}
      </h1>
      <button type="button" onClick={undo} disabled={!past.length}>
        {t('ui_toolbar_undo')}
      </button>
      <button type="button" onClick={redo} disabled={!future.length}>
        {t('ui_toolbar_redo')}
      </button>
      <button type="button" onClick={() => apply(moveNodes(doc, layout(doc)))}>
        {t('ui_toolbar_layout')}
      </button>
      <button type="button" onClick={() => void flow?.fitView()} disabled={view !== 'canvas'}>
        {t('ui_toolbar_fit')}
      </button>
      <button
        type="button"
        aria-pressed={view === 'list'}
        onClick={() => onView(view === 'canvas' ? 'list' : 'canvas')}
      >
        {t(view === 'canvas' ? 'ui_toolbar_list_view' : 'ui_toolbar_canvas_view')}
      </button>
      <button type="button" className="primary" onClick={() => void save()}>
        {t('ui_toolbar_save')}
      </button>
      <button type="button" onClick={() => void start()} disabled={dirty}>
        {t('ui_toolbar_run')}
      </button>
      <p role="status" className="toolbar-status">
        {message}
        {run !== null && <Link to={`/runs/${run}`}>{t('ui_toolbar_run_started', { run })}</Link>}
      </p>
    </div>
  );
}
