// The runs list: filtered by flow, status, trigger and creation time, newest first, a page at a time
// (the API's keyset cursor), kept current by the runs' event stream (api/events.ts), never by polling. On
// a phone each run is a card, each cell named by its column (data-label, app.css "Phones").
import { Actor } from '../people/Actor';
import { useState } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { failureSentence } from '../api/failure';
import { flowsQuery } from '../api/flows';
import { runsQuery, type RunsFilter } from '../api/runs';
import { DecisionTag } from './RunDecision';
import { STATUS_KEYS, TRIGGER_KEYS, when } from './format';

interface Filters {
  flow: string;
  status: string;
  trigger: string;
  since: string;
  until: string;
}

const NONE: Filters = { flow: '', status: '', trigger: '', since: '', until: '' };

/** A datetime-local value (the reader's zone) as ISO 8601 with its offset, which the API requires. */
export function withOffset(local: string): string | undefined {
  return local ? new Date(local).toISOString() : undefined;
}

/** The page's filters as the API's query (an empty field filters nothing). */
function runsFilter(filters: Filters): RunsFilter {
  return {
    flow: filters.flow ? Number(filters.flow) : undefined,
    status: (filters.status || undefined) as RunsFilter['status'],
    trigger: (filters.trigger || undefined) as RunsFilter['trigger'],
    since: withOffset(filters.since),
    until: withOffset(filters.until),
    limit: 50,
  };
}

export function RunsPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<Filters>(NONE);
  const flows = useQuery(flowsQuery);
  const runs = useInfiniteQuery(runsQuery(runsFilter(filters)));
  const set = (name: keyof Filters) => (event: { target: { value: string } }) =>
    setFilters({ ...filters, [name]: event.target.value });
  const names = new Map((flows.data?.flows ?? []).map((f) => [f.id, f.name]));

  return (
    <section className="page">
      <h1>{t('ui_runs_title')}</h1>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          {t('ui_filter_flow')}
          <select value={filters.flow} onChange={set('flow')}>
            <option value="">{t('ui_filter_any')}</option>
            {flows.data?.flows.map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('ui_filter_status')}
          <select value={filters.status} onChange={set('status')}>
            <option value="">{t('ui_filter_any')}</option>
            {Object.entries(STATUS_KEYS).map(([value, key]) => (
              <option key={value} value={value}>
                {t(key)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('ui_filter_trigger')}
          <select value={filters.trigger} onChange={set('trigger')}>
            <option value="">{t('ui_filter_any')}</option>
            {Object.entries(TRIGGER_KEYS).map(([value, key]) => (
              <option key={value} value={value}>
                {t(key)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('ui_filter_since')}
          <input type="datetime-local" value={filters.since} onChange={set('since')} />
        </label>
        <label>
          {t('ui_filter_until')}
          <input type="datetime-local" value={filters.until} onChange={set('until')} />
        </label>
      </form>
      {runs.error && <p role="alert">{failureSentence(runs.error, t)}</p>}
      <table className="runs">
        <thead>
          <tr>
            <th scope="col">{t('ui_runs_run')}</th>
            <th scope="col">{t('ui_filter_flow')}</th>
            <th scope="col">{t('ui_filter_status')}</th>
            <th scope="col">{t('ui_filter_trigger')}</th>
            <th scope="col">{t('ui_runs_started_by')}</th>
            <th scope="col">{t('ui_runs_created')}</th>
          </tr>
        </thead>
        <tbody>
          {runs.data?.pages.flatMap((page) =>
            page.runs.map((run) => (
              <tr key={run.id} data-run={run.id}>
                <td data-label={t('ui_runs_run')}>
                  <Link to={`/runs/${run.id}`}>{t('ui_run_title', { run: run.id })}</Link>
                </td>
                <td data-label={t('ui_filter_flow')}>
                  {t('ui_runs_flow_version', {
                    flow: names.get(run.flow_id) ?? run.flow_id,
                    version: run.version,
                  })}
                </td>
                <td data-label={t('ui_filter_status')}>
                  <span className={`status status-${run.status}`}>
                    {t(STATUS_KEYS[run.status] ?? run.status)}
                  </span>
                  {run.decision && (
                    <>
                      {' '}
                      <DecisionTag decision={run.decision} />
                    </>
                  )}
                </td>
                <td data-label={t('ui_filter_trigger')}>{t(TRIGGER_KEYS[run.trigger] ?? run.trigger)}</td>
                <td data-label={t('ui_runs_started_by')}>
                  <Actor name={run.started_by} />
                </td>
                <td data-label={t('ui_runs_created')} translate="no">
                  {when(run.created_at)}
                </td>
              </tr>
            )),
          )}
        </tbody>
      </table>
      {runs.hasNextPage && (
        <button type="button" onClick={() => void runs.fetchNextPage()}>
          {t('ui_more')}
        </button>
      )}
    </section>
  );
}
