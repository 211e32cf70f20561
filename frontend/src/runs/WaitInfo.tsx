// What a paused run waits for: its open approvals (who may decide, the deadline; several at once with a
// parallel open), a delay (until when), a branch's failed action tried again (attempt n of the maximum,
// and when), or a retry after a failed resume (attempt n of the maximum, and when the next try comes). A
// stopped run's wait has no next try: its buttons (StopActions) say what comes next.
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { joinSentences } from '../i18n/format';
import { principalList, TIMEOUT_KEYS, when } from './format';
import type { RunApproval, RunPageData } from '../api/runs';

export function WaitInfo({ data }: { data: RunPageData }) {
  const { t } = useTranslation();
  const wait = data.wait;
  if (!wait) return null;
  // Every approval still open: with a parallel, the wait's first pause may be another branch's.
  const open = data.approvals.filter((a) => a.outcome === null);
  return (
    <section className="wait" aria-labelledby="wait-title">
      <h2 id="wait-title">{t('ui_run_wait')}</h2>
      {wait.last_error && wait.status !== 'stopped' && (
        <p className="retry">
          {t('ui_run_retry', { attempt: wait.attempts, max: data.max_attempts, next: when(wait.wake_at) })}{' '}
          <span className="run-error" data-code={wait.last_error}>
            {wait.last_error_message}
          </span>
        </p>
      )}
      {(wait.retries ?? []).map((retry) => (
        <p key={retry.visit} className="branch-retry" data-node={retry.node}>
          {t('ui_run_branch_retry', {
            node: nodeLabel(data, retry.node),
            attempt: retry.attempt + 1,
            max: data.max_attempts,
            next: when(retry.due),
          })}
        </p>
      ))}
      {open.map((approval) => (
        <OpenApproval key={approval.id} approval={approval} />
      ))}
      {wait.kind === 'delay' && !wait.last_error && (
        <p>{t('ui_run_waits_until', { until: when(wait.wake_at) })}</p>
      )}
    </section>
  );
}

function OpenApproval({ approval }: { approval: RunApproval }) {
  const { t } = useTranslation();
  return (
    <div className="open-approval" data-node={approval.node}>
      <p>
        {t('ui_run_waits_for_approval')}{' '}
        <Link to={`/approvals/${approval.id}`} translate="no">
          {approval.title}
        </Link>
      </p>
      <p>
        {t('ui_run_approvers_are', {
          approvers: approval.approvers.length ? principalList(t, approval.approvers) : t('ui_run_anyone'),
        })}
      </p>
      <p>
        {approval.deadline_at
          ? joinSentences([
              t('ui_run_deadline', { deadline: when(approval.deadline_at) }),
              t(TIMEOUT_KEYS[approval.on_timeout ?? 'skip'] ?? ''),
            ])
          : t('mail_approval_no_deadline')}
      </p>
    </div>
  );
}

/** A node as its author named it on the canvas (the id when it has no label). */
function nodeLabel(data: RunPageData, id: string): string {
  return data.flow?.document.nodes.find((node) => node.id === id)?.label ?? id;
}
