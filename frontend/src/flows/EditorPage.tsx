// One flow in the editor: the palette, the canvas (or the list view), the selected node's panel and the
// live findings. Save is refused while checked findings stand (the server refuses an invalid flow too);
// Run starts a real run and links to it. Without the edit right on the flow it is read-only (no palette,
// no edit in the panels); on a phone (shell/phone.ts) it says that drawing needs a larger screen and shows
// the flow as a list to read. At /flows/new it edits a new flow (New flow, a template) that nothing has
// saved yet; without one it goes back to the flows.
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ReactFlowInstance } from '@xyflow/react';
import { Navigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Canvas } from '../canvas/Canvas';
import { Palette } from '../canvas/Palette';
import { FindingsPanel } from '../panel/FindingsPanel';
import { useWarnings } from '../canvas/warnings';
import { ListView } from '../listview/ListView';
import { addNode, type FlowDocument } from './document';
import { useFindings, type Finding } from './findings';
import { placeFinding } from './findingText';
import { usePlaced } from './findingSentences';
import { unsaved, useEditor } from './store';
import { flowDocument, flowQuery } from '../api/flows';
import { arrival, newerVersion } from './arrival';
import { openDocument, placed } from './open';
import { NewerNotice } from './NewerNotice';
import { afterPaint } from './afterPaint';
import { Toolbar } from './Toolbar';
import { PhoneSave } from './PhoneSave';
import { useCopyPasteKeys, useLeaveGuard, useUndoKeys } from './keys';
import { VersionsPanel } from './VersionsPanel';
import { FindDialog } from './FindDialog';
import { WalkPanel } from '../walk/WalkPanel';
import { useWalk } from '../walk/store';
import { visitsByNode } from '../walk/walk';
import { diffDocuments, diffMarks, useCompare } from './compare';
import { ComparePanel } from './ComparePanel';
import { failureSentence } from '../api/failure';
import { useRights } from '../runs/rights';
import { usePhone } from '../shell/phone';

// rjsf and its validator (panel/formValidator.ts) load with the first node's panel, not with the canvas.
const ConfigPanel = lazy(() => import('../panel/ConfigPanel').then((m) => ({ default: m.ConfigPanel })));

// Stable: a new set each render would redraw every node, which drops a wire being dragged.
const NOT_WALKED = new Set<string>();
const NOT_DRAWN: FlowDocument = { format: 'flowyard.flow/1', name: '', nodes: [], wires: [] };

export function EditorPage() {
  const { t } = useTranslation();
  const param = useParams().flowId;
  const flowId = param === 'new' ? null : Number(param);
  const [flow, setFlow] = useState<ReactFlowInstance | null>(null);
  const [view, setView] = useState<'canvas' | 'list'>('canvas');
  const editor = useEditor();
  const may = useRights();
  const phone = usePhone();
  const readOnly = editor.viewing !== null || !may('edit', flowId) || phone;
  const loaded = useQuery({ ...flowQuery(flowId ?? 0), enabled: flowId !== null });
  // The flow as opened is checked once the canvas has drawn (a saved version has no findings, only
  // perhaps warnings); every edit after that at once (flows/findings.ts).
  const [drawn, setDrawn] = useState<number | null>(null);
  const opened = editor.flowId === flowId;
  useEffect(() => (opened ? afterPaint(() => setDrawn(flowId)) : undefined), [opened, flowId]);
  const { findings, warnings, checking } = useFindings(drawn === flowId ? editor.doc : NOT_DRAWN);
  useEffect(() => useWarnings.getState().show(warnings), [warnings]);
  // Each finding as a sentence on its node and field, for the panel, the cards and the list below.
  const said = useMemo(() => findings.map((f) => placeFinding(f, editor.doc, t)), [findings, editor.doc, t]);
  useEffect(() => usePlaced.getState().show(said), [said]);
  const sample = useWalk((s) => s.result);
  const walked = useMemo(() => (sample ? new Set(sample.visits) : NOT_WALKED), [sample]);
  const base = useCompare((s) => s.base);
  const diff = useMemo(() => (base ? diffDocuments(base, editor.doc) : null), [base, editor.doc]);
  const marks = useMemo(() => (diff ? diffMarks(diff) : undefined), [diff]);
  useEffect(() => () => useCompare.getState().stop(), [flowId]);
  const order = useMemo(() => (sample ? visitsByNode(sample.visits) : undefined), [sample]);
  const paused = useMemo(() => (sample ? new Set(sample.pending.map((p) => p.node)) : NOT_WALKED), [sample]);
  useUndoKeys();
  useCopyPasteKeys(readOnly);
  useLeaveGuard(unsaved(editor), t('ui_leave_confirm'));
  const newer =
    flowId === null
      ? null
      : newerVersion(
          {
            opened: editor.flowId,
            version: editor.version,
            dirty: unsaved(editor),
            viewing: editor.viewing !== null,
          },
          flowId,
          loaded.data?.version,
        );

  // The flow this page has loaded since it mounted: its first answer opens it; a later one (a refetch)
  // replaces the document only when nothing would be lost (flows/arrival.ts).
  const loadedHere = useRef<number | null>(null);
  const layout = useRef<() => void>(() => undefined);
  useEffect(
    () => () => {
      layout.current();
      loadedHere.current = null;
    },
    [],
  );
  useEffect(() => {
    const fetched = loaded.data;
    if (!fetched?.document || flowId === null) return;
    const doc = flowDocument(fetched);
    if (!doc) return;
    const now = useEditor.getState();
    const editing = {
      opened: now.flowId === loadedHere.current ? loadedHere.current : null,
      version: now.version,
      dirty: unsaved(now),
      viewing: now.viewing !== null,
    };
    const action = arrival(editing, flowId, fetched.version);
    if (action === 'beneath') now.beneath(fetched.version, placed(doc));
    if (action !== 'load') return;
    loadedHere.current = flowId;
    layout.current();
    layout.current = openDocument(flowId, fetched.version, doc);
  }, [loaded.data, flowId]);

  const addAtCentre = useCallback(
    (type: string) => {
      const box = document.querySelector('.canvas')?.getBoundingClientRect();
      const centre =
        flow && box
          ? flow.screenToFlowPosition({ x: box.x + box.width / 2, y: box.y + box.height / 3 })
          : { x: 0, y: 0 };
      const offset = (useEditor.getState().doc.nodes.length % 5) * 24;
      useEditor
        .getState()
        .apply(addNode(useEditor.getState().doc, type, { x: centre.x + offset, y: centre.y + offset }));
    },
    [flow],
  );

  const focusNode = useCallback(
    (id: string) => {
      editor.select([id]);
      const node = editor.doc.nodes.find((n) => n.id === id);
      if (flow && node?.position)
        void flow.setCenter(node.position.x + 110, node.position.y + 42, { duration: 200 });
    },
    [editor, flow],
  );
  const pick = useCallback(
    (finding: Finding) => {
      const id = finding.node ?? (finding.wire !== null ? editor.doc.wires[finding.wire]?.from : undefined);
      if (id) focusNode(id);
    },
    [editor.doc.wires, focusNode],
  );

  const created = useCallback((id: number) => {
    loadedHere.current = id;
  }, []);

  if (flowId === null && !editor.fresh && editor.flowId === null) return <Navigate to="/flows" replace />;
  // A refetch that fails (the server away a moment) leaves the flow being edited on the page.
  if (loaded.error && !loaded.data) return <p role="alert">{failureSentence(loaded.error, t)}</p>;
  if (editor.flowId !== flowId) return <p aria-busy="true">{t('ui_loading')}</p>;
  if (phone) {
    return (
      <section className="page editor-phone">
        <h1>
          <span translate="no">{editor.doc.name}</span>{' '}
          <span className="version">{t('ui_toolbar_version', { version: editor.version ?? 0 })}</span>
        </h1>
        <p role="note" className="phone-notice">
          {t('ui_editor_phone_notice')}
        </p>
        {flowId === null && <PhoneSave findings={findings.length} onCreated={created} />}
        <ListView findings={findings} readOnly selectable={false} />
      </section>
    );
  }
  const selected =
    editor.selected.length === 1 ? editor.doc.nodes.find((n) => n.id === editor.selected[0]) : undefined;

  return (
    <div className="editor">
      <Toolbar
        findings={findings}
        checking={checking}
        flow={flow}
        view={view}
        onView={setView}
        onCreated={created}
      />
      <FindDialog onPick={focusNode} />
      {newer !== null && flowId !== null && <NewerNotice flowId={flowId} version={newer} />}
      {editor.refusal && (
        <p role="alert" className="refusal">
          {t(editor.refusal.code, editor.refusal.params)}
        </p>
      )}
      <div className="editor-body">
        {may('edit', flowId) && <Palette onAdd={addAtCentre} disabled={readOnly} />}
        {view === 'canvas' ? (
          <Canvas
            findings={findings}
            walked={walked}
            order={order}
            paused={paused}
            diff={marks}
            readOnly={readOnly}
            flow={flow}
            onInit={setFlow}
          />
        ) : (
          <ListView findings={findings} readOnly={readOnly} />
        )}
        <div className="side">
          {selected ? (
            <Suspense fallback={<p aria-busy="true">{t('ui_loading')}</p>}>
              <ConfigPanel key={selected.id} node={selected} readOnly={readOnly} />
            </Suspense>
          ) : (
            <p>{t('ui_panel_empty')}</p>
          )}
          {diff && <ComparePanel diff={diff} />}
          <FindingsPanel findings={findings} said={said} warnings={warnings} onPick={pick} />
          <WalkPanel />
          {flowId !== null && <VersionsPanel flowId={flowId} />}
        </div>
      </div>
    </div>
  );
}
