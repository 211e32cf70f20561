// The audit trail: decisions found by flow, decider, outcome, time range and text, a page at a time;
// exported as CSV or JSON with the same filter, in the reader's language (the server writes the file).
import { useState } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { decisionsExportHref, decisionsQuery, type AuditFilter } from '../api/audit';
import { failureSentence } from '../api/failure';
import { flowsQuery } from '../api/flows';
import { Moment } from '../i18n/Moment';
import { Actor } from '../people/Actor';
import { OUTCOME_KEYS, TIMEOUT_KEYS } from '../runs/format';
import { withOffset } from '../runs/RunsPage';
import { ChainCheck } from './ChainCheck';
import { EvidenceLink } from './EvidenceLink';

interface Filters {
  flow: string;
  decider: string;
  outcome: string;
  since: string;
  until: string;
  text: string;
}

const NONE: Filters = { flow: '', decider: '', outcome: '', since: '', until: '', text: '' };
const DECIDED = Object.keys(OUTCOME_KEYS);

export function auditQuery(filters: Filters): Record<string, string> {
  const query: Record<string, string> = {};
  if (filters.flow) query.flow = filters.flow;
  if (filters.decider) query.decider = filters.decider;
  if (filters.outcome) query.outcome = filters.outcome;
  if (filters.text) query.text = filters.text;
  const since = withOffset(filters.since);
  const until = withOffset(filters.until);
  if (since) query.since = since;
  if (until) query.until = until;
  return query;
}

/** The page's filters as the API's query. */
function auditFilter(filters: Filters): AuditFilter {
  const { flow, outcome, ...query } = auditQuery(filters);
  return {
    ...query,
    ...(flow ? { flow: Number(flow) } : {}),
    ...(outcome ? { outcome: outcome as AuditFilter['outcome'] } : {}),
  };
}

export function AuditPage() {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Filters>(NONE);
  const [filters, setFilters] = useState<Filters>(NONE);
  const flows = useQuery(flowsQuery);
  const decisions = useInfiniteQuery(decisionsQuery(auditFilter(filters)));
  const set = (name: keyof Filters) => (event: { target: { value: string } }) =>
    setDraft({ ...draft, [name]: event.target.value });
  const exportHref = (format: 'csv' | 'json') => decisionsExportHref(auditQuery(filters), format);

  return (
    <section className="page">
      <h1>{t('ui_audit_title')}</h1>
      <form
        className="filters"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters(draft);
        }}
      >
        <label>
          {t('ui_filter_flow')}
          <select value={draft.flow} onChange={set('flow')}>
            <option value="">{t('ui_filter_any')}</option>
            {flows.data?.flows.map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('ui_audit_decider')}
          <input value={draft.decider} onChange={set('decider')} maxLength={64} />
        </label>
        <label>
          {t('ui_audit_outcome')}
          <select value={draft.outcome} onChange={set('outcome')}>
            <option value="">{t('ui_filter_any')}</option>
            {DECIDED.map((outcome) => (
              <option key={outcome} value={outcome}>
                {t(OUTCOME_KEYS[outcome] ?? outcome)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('ui_filter_since')}
          <input type="datetime-local" value={draft.since} onChange={set('since')} />
        </label>
        <label>
          {t('ui_filter_until')}
          <input type="datetime-local" value={draft.until} onChange={set('until')} />
        </label>
        <label>
          {t('ui_audit_text')}
          <input type="search" value={draft.text} onChange={set('text')} maxLength={200} />
        </label>
        <button type="submit">{t('ui_audit_search')}</button>
      </form>
      <p className="exports">
        <a href={exportHref('csv')} download>
          {t('ui_audit_export_csv')}
        </a>{' '}
        <a href={exportHref('json')} download>
          {t('ui_audit_export_json')}
        </a>
      </p>
      <ChainCheck flow={filters.flow} />
      {decisions.error && <p role="alert">{failureSentence(decisions.error, t)}</p>}
      <table className="audit">
        <thead>
          <tr>
            <th scope="col">{t('audit_column_title')}</th>
            <th scope="col">{t('audit_column_outcome')}</th>
            <th scope="col">{t('audit_column_decided_by')}</th>
            <th scope="col">{t('audit_column_decided_at_local')}</th>
            <th scope="col">{t('audit_column_comment')}</th>
            <th scope="col">{t('ui_inbox_deadline')}</th>
            <th scope="col">{t('audit_column_version')}</th>
            <th scope="col">{t('audit_column_started_by')}</th>
            <th scope="col">{t('ui_evidence_column')}</th>
          </tr>
        </thead>
        <tbody>
          {decisions.data?.pages.flatMap((page) =>
            page.decisions.map((d) => (
              <tr key={d.id} data-approval={d.id}>
                <td>
                  <Link to={`/approvals/${d.id}`} translate="no">
                    {d.title}
                  </Link>
                </td>
                <td data-outcome={d.outcome}>{d.outcome ? t(OUTCOME_KEYS[d.outcome] ?? d.outcome) : ''}</td>
                <td>
                  <Actor name={d.decided_by} />
                </td>
                <td>
                  <Moment iso={d.decided_at} />
                </td>
                <td translate="no">{d.comment ?? ''}</td>
                <td>
                  <Moment iso={d.deadline_at} />{' '}
                  {d.deadline_at ? t(TIMEOUT_KEYS[d.on_timeout ?? 'skip'] ?? '') : ''}
                </td>
                <td>{t('ui_audit_flow_version', { flow: d.flow_id, version: d.version })}</td>
                <td>
                  <Actor name={d.started_by} />
                </td>
                <td>
                  <EvidenceLink approval={d} />
                </td>
              </tr>
            )),
          )}
        </tbody>
      </table>
      {decisions.hasNextPage && (
        <button type="button" onClick={() => void decisions.fetchNextPage()}>
          {t('ui_more')}
        </button>
      )}
    </section>
  );
}
