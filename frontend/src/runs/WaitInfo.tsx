// What a paused run waits for: an approval (who may decide, the deadline), a delay (until when), or a
// retry after a failed resume (attempt n of the maximum, and when the next try comes). A stopped run's
// wait has no next try: its buttons (StopActions) say what comes next.
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { TIMEOUT_KEYS, when } from './format';
import type { RunPageData } from './types';

export function WaitInfo({ data }: { data: RunPageData }) {
  const { t } = useTranslation();
  const wait = data.wait;
  if (!wait) return null;
  const approval = data.approvals.find((a) => a.visit === wait.visit && a.outcome === null);
  return (
    <section className="wait" aria-labelledby="wait-title">
      <h2 id="wait-title">{t('ui_run_wait')}</h2>
      {wait.last_error && wait.status !== 'stopped' && (
        <p className="retry">
          {t('ui_run_retry', { attempt: wait.attempts, max: data.max_attempts, next: when(wait.wake_at) })}{' '}
          <span className="run-error" data-code={wait.last_error}>
            {wait.last_error_message ?? wait.last_error}
          </span>
        </p>
      )}
      {wait.kind === 'approval' && approval && (
        <div>
          <p>
            {t('ui_run_waits_for_approval')} <Link to={`/approvals/${approval.id}`}>{approval.title}</Link>
          </p>
          <p>
            {t('ui_run_approvers')}:{' '}
            {approval.approvers.length ? approval.approvers.join(', ') : t('ui_run_anyone')}
          </p>
          <p>
            {approval.deadline_at
              ? `${t('ui_inbox_deadline')}: ${when(approval.deadline_at)}. ${t(TIMEOUT_KEYS[approval.on_timeout ?? 'skip'] ?? '')}`
              : t('mail_approval_no_deadline')}
          </p>
        </div>
      )}
      {wait.kind === 'delay' && !wait.last_error && (
        <p>{t('ui_run_waits_until', { until: when(wait.wake_at) })}</p>
      )}
    </section>
  );
}
