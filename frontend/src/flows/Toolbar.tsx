// The editor's toolbar: the flow's name, rename, undo/redo, layout, fit, the view switch, save and run.
// Editing buttons only with the edit right on the flow (a new flow: edit everywhere, which creating takes),
// Run only with the run right (runs/rights.ts). A new flow's Save creates it and the page moves to its
// address; Run asks for the trigger's input first (RunDialog).
import { useEffect, useState } from 'react';
import type { ReactFlowInstance } from '@xyflow/react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { flowKeys, saveFlow } from '../api/flows';
import { failureSentence } from '../api/failure';
import { moveNodes } from './document';
import { layoutInWorker } from './layoutWorker';
import type { Finding } from './findings';
import { useEditor } from './store';
import { reopen } from './open';
import { useRights } from '../runs/rights';
import { NameDialog } from './NameDialog';
import { RunDialog } from './RunDialog';
import { renameFlow } from './names';
import { useCreate, type Created } from './create';

interface Props {
  findings: Finding[];
  /** The findings may be of an earlier draft (a check is under way): Save leaves the judgement to the server. */
  checking: boolean;
  flow: ReactFlowInstance | null;
  view: 'canvas' | 'list';
  onView: (view: 'canvas' | 'list') => void;
  /** A new flow's first Save made it this flow: the page holds it as loaded, history and all. */
  onCreated: (flowId: number) => void;
}

export function Toolbar({ findings, checking, flow, view, onView, onCreated }: Props) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const createFlow = useCreate(onCreated);
  const location = useLocation();
  const navigate = useNavigate();
  const { doc, savedDoc, past, future, flowId, fresh, version, viewing, undo, redo } = useEditor();
  const may = useRights();
  const edits = flowId === null ? fresh && may('edit') : may('edit', flowId);
  const runs = flowId !== null && may('run', flowId);
  const made = (location.state as Partial<Created> | null)?.created;
  const [message, setMessage] = useState<string | null>(() =>
    made === undefined ? null : t('ui_save_done', { version: made }),
  );
  // Said once: the state is dropped from the history entry, so a reload does not say it again.
  useEffect(() => {
    if (made !== undefined) void navigate(location.pathname, { replace: true, state: null });
  }, [made, navigate, location.pathname]);
  const [dialog, setDialog] = useState<'run' | 'name' | null>(null);
  const [stale, setStale] = useState(false);
  const [arranging, setArranging] = useState(false);
  const dirty = doc !== savedDoc;

  // dagre in a worker: a second on 500 nodes, during which the page keeps answering. An edit made
  // meanwhile stays; the layout moves the nodes it knew (one undo step), if the same flow is still open.
  function arrange() {
    const opened = flowId;
    setArranging(true);
    layoutInWorker(useEditor.getState().doc)
      .then((placed) => {
        const now = useEditor.getState();
        if (now.flowId === opened && now.viewing === null) now.apply(moveNodes(now.doc, placed));
      })
      .catch(() => undefined) // nothing moved; Arrange can be pressed again
      .finally(() => setArranging(false));
  }

  async function save(base: number | null) {
    setStale(false);
    // Findings of an earlier draft would refuse an edit that fixed them (a fast click on Save): while the
    // last edit is being checked, the server checks what is saved, and refuses it (flow_invalid) if need be.
    if (!checking && findings.length > 0) {
      setMessage(t('ui_save_refused', { count: findings.length }));
      return;
    }
    if (flowId === null) {
      await create();
      return;
    }
    try {
      // The version this edit started from: a newer one saved meanwhile answers 409 with who and when.
      const saved = await saveFlow(flowId, doc, base);
      useEditor.getState().saved(saved.version);
      setMessage(t('ui_save_done', { version: saved.version }));
      await queries.invalidateQueries({ queryKey: flowKeys.list });
      await queries.invalidateQueries({ queryKey: flowKeys.versions(flowId) });
    } catch (failure) {
      setStale(failure instanceof ApiError && failure.code === 'flow_version_stale');
      setMessage(refusal(failure));
    }
  }

  /** Why a save failed: the server's findings counted as the page counts its own, or the failure's sentence. */
  function refusal(failure: unknown): string {
    const invalid = failure instanceof ApiError && failure.code === 'flow_invalid';
    const found = invalid ? (failure.detail as { findings?: unknown } | null)?.findings : undefined;
    return Array.isArray(found) ? t('ui_save_refused', { count: found.length }) : failureSentence(failure, t);
  }

  async function create() {
    try {
      await createFlow();
    } catch (failure) {
      setMessage(refusal(failure));
    }
  }

  async function rename(name: string, description: string | null) {
    if (flowId === null) useEditor.getState().renamed(name, description);
    else {
      await renameFlow(flowId, { name, description });
      await queries.invalidateQueries({ queryKey: flowKeys.list });
    }
    setDialog(null);
    setMessage(t('ui_toolbar_renamed', { name }));
  }

  async function loadTheirs() {
    setMessage(null);
    try {
      if (flowId !== null) await reopen(queries, flowId);
      setStale(false);
    } catch (failure) {
      setMessage(failureSentence(failure, t)); // the edits stay, and so does the choice
    }
  }

  return (
    <div className="toolbar" role="toolbar" aria-label={t('ui_toolbar_label')}>
      <h1>
        <span translate="no">{doc.name}</span>{' '}
        {version !== null && <span className="version">{t('ui_toolbar_version', { version })}</span>}
        {dirty && viewing === null && <span className="dirty">{t('ui_toolbar_unsaved')}</span>}
        {viewing !== null && <span className="dirty">{t('ui_versions_viewing', { version: viewing })}</span>}
      </h1>
      {edits && (
        <>
          <button type="button" onClick={() => setDialog('name')} disabled={viewing !== null}>
            {t('ui_toolbar_rename')}
          </button>
          <button type="button" onClick={undo} disabled={!past.length || viewing !== null}>
            {t('ui_toolbar_undo')}
          </button>
          <button type="button" onClick={redo} disabled={!future.length}>
            {t('ui_toolbar_redo')}
          </button>
          <button
            type="button"
            onClick={arrange}
            disabled={viewing !== null || arranging}
            aria-busy={arranging}
          >
            {t('ui_toolbar_layout')}
          </button>
        </>
      )}
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
      {edits && (
        <button
          type="button"
          className="primary"
          onClick={() => void save(version)}
          disabled={viewing !== null}
        >
          {t('ui_toolbar_save')}
        </button>
      )}
      {runs && (
        <button type="button" onClick={() => setDialog('run')} disabled={dirty || viewing !== null}>
          {t('ui_toolbar_run')}
        </button>
      )}
      <p role="status" className="toolbar-status">
        {message}
      </p>
      {dialog === 'run' && flowId !== null && <RunDialog flowId={flowId} onClose={() => setDialog(null)} />}
      {dialog === 'name' && (
        <NameDialog
          title="ui_toolbar_rename_title"
          confirm="ui_toolbar_rename_done"
          name={doc.name}
          description={doc.description ?? ''}
          onDone={rename}
          onClose={() => setDialog(null)}
        />
      )}
      {stale && (
        <span className="row">
          <button type="button" onClick={() => void save(null)}>
            {t('ui_save_overwrite')}
          </button>
          <button type="button" onClick={() => void loadTheirs()}>
            {t('ui_save_load_theirs')}
          </button>
        </span>
      )}
    </div>
  );
}
