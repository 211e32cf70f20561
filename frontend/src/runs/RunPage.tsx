// One run: its canvas with the path taken, what it waits for, the journal, its data and its actions.
// Cancelling takes the run right on the flow; the button is shown only to those who hold it.
import { useMemo } from 'react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { failureSentence } from '../api/failure';
import { cancelRun, runKeys, runQuery, type RunPageData } from '../api/runs';
import { Effects } from './Effects';
import { Journal } from './Journal';
import { RunCanvas } from './RunCanvas';
import { DecisionLine, outcomeSentence } from './RunDecision';
import { STATUS_KEYS, when } from './format';
import { useRights } from './rights';
import { StopActions } from './StopActions';
import { WaitInfo } from './WaitInfo';

export function RunPage() {
  const { t } = useTranslation();
  const runId = Number(useParams().runId);
  const queries = useQueryClient();
  const may = useRights();
  // The journal a page at a time (the API's first 100 lines, then each next page after the last line
  // shown); the run and all beside it come from the first page, refetched with the rest on a change.
  const pages = useInfiniteQuery(runQuery(runId));
  const page = { error: pages.error, data: pages.data?.pages[0] };
  const lines = pages.data?.pages.flatMap((one) => one.journal) ?? [];
  // Kept between renders: the canvas lays the flow out again only when what the run waits at changes.
  const first = pages.data?.pages[0];
  const waiting = useMemo(() => waitingNodes(first), [first]);
  const cancel = useMutation({
    mutationFn: () => cancelRun(runId),
    onSettled: () => queries.invalidateQueries({ queryKey: runKeys.one(runId) }),
  });

  // A next page that failed leaves the run shown (Journal says so under its lines); only a run that could
  // not be read at all is an error page.
  if (page.error && !page.data) return <p role="alert">{failureSentence(page.error, t)}</p>;
  if (!page.data) return <p aria-busy="true">{t('ui_loading')}</p>;
  const { run, flow } = page.data;
  const open = run.status === 'waiting' || run.status === 'running' || run.status === 'stopped';

  return (
    <section className="page run-page">
      <h1>{t('ui_run_heading', { run: run.id, flow: flow?.name ?? run.flow_id, version: run.version })}</h1>
      <p>
        <span className={`status status-${run.status}`} data-status={run.status}>
          {t(STATUS_KEYS[run.status] ?? run.status)}
        </span>{' '}
        {t('ui_run_started', { when: when(run.created_at), who: run.started_by ?? '—' })}
        {run.error && (
          <span className="run-error" data-code={run.error}>
            {' '}
            {run.error_message}
          </span>
        )}
      </p>
      {run.decision && <DecisionLine decision={run.decision} />}
      {open && may('run', run.flow_id) && (
        <button
          type="button"
          onClick={() => {
            if (window.confirm(t('ui_run_cancel_confirm'))) cancel.mutate();
          }}
        >
          {t('ui_run_cancel')}
        </button>
      )}
      {run.status === 'stopped' && may('run', run.flow_id) && (
        <StopActions runId={run.id} version={run.version} />
      )}
      {cancel.error && <p role="alert">{failureSentence(cancel.error, t)}</p>}
      <WaitInfo data={page.data} />
      {flow && <RunCanvas document={flow.document} visits={page.data.visits} waitingAt={waiting} />}
      {page.data.approvals.length > 0 && (
        <section aria-labelledby="approvals-title">
          <h2 id="approvals-title">{t('ui_run_approvals')}</h2>
          <ul>
            {page.data.approvals.map((a) => (
              <li key={a.id}>
                <Link to={`/approvals/${a.id}`} translate="no">
                  {a.title}
                </Link>{' '}
                <span className="approval-outcome" data-outcome={a.outcome ?? ''}>
                  {a.outcome
                    ? outcomeSentence({ ...a, outcome: a.outcome }, t)
                    : t('ui_run_approval_waiting')}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <Effects effects={page.data.effects} />
      <section aria-labelledby="data-title">
        <h2 id="data-title">{t('ui_run_input')}</h2>
        <pre translate="no">{JSON.stringify(run.input ?? null, null, 2)}</pre>
        {page.data.variables !== null && (
          <>
            <h3>{t('ui_run_variables')}</h3>
            <pre translate="no">{JSON.stringify(page.data.variables, null, 2)}</pre>
          </>
        )}
      </section>
      <Journal
        lines={lines}
        more={pages.hasNextPage ? () => void pages.fetchNextPage() : null}
        loading={pages.isFetchingNextPage}
        failed={
          pages.isFetchNextPageError && pages.error
            ? failureSentence(pages.error, t, 'ui_run_journal_more_failed')
            : null
        }
      />
    </section>
  );
}

/** The nodes the run waits at: its wait's first pause, and with a parallel open every open approval and
 * every branch's action to be tried again. */
function waitingNodes(data: RunPageData | undefined): string[] {
  const wait = data?.wait;
  if (!data || !wait) return [];
  const open = data.approvals.filter((a) => a.outcome === null).map((a) => a.node);
  const retries = wait.retries.map((r) => r.node);
  return [...new Set([...(wait.node ? [wait.node] : []), ...open, ...retries])];
}
