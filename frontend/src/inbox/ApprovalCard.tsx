// One approval as an approver reads it: the question and explanation (rendered with the run's data when
// the run asked), who started the run and when, the deadline counting down and what happens then.
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { OUTCOME_KEYS, TIMEOUT_KEYS, when } from '../runs/format';
import type { Approval } from '../runs/types';
import { Countdown } from './Countdown';
import { Decision, type Choice } from './Decision';
import { Votes } from './Votes';

interface Props {
  approval: Approval;
  choice: Choice | null;
  onChoose: (choice: Choice | null) => void;
}

export function ApprovalCard({ approval, choice, onChoose }: Props) {
  const { t } = useTranslation();
  return (
    <article className="approval" aria-labelledby={`approval-${approval.id}`}>
      <h2 id={`approval-${approval.id}`}>{approval.title}</h2>
      {approval.explanation && <p className="explanation">{approval.explanation}</p>}
      <p>
        {t('ui_inbox_requested', { who: approval.started_by ?? '—', when: when(approval.requested_at) })}{' '}
        <Link to={`/runs/${approval.run_id}`}>{t('ui_run_title', { run: approval.run_id })}</Link>
      </p>
      {approval.deadline_at ? (
        <p>
          {t('ui_inbox_deadline')}: <Countdown deadline={approval.deadline_at} />{' '}
          {t(TIMEOUT_KEYS[approval.on_timeout ?? 'skip'] ?? '')}
        </p>
      ) : (
        <p>{t('mail_approval_no_deadline')}</p>
      )}
      <Votes approval={approval} />
      {approval.outcome === null ? (
        <Decision approvalId={approval.id} choice={choice} onChoose={onChoose} />
      ) : (
        <p className="decided" role="status">
          {t('ui_inbox_decided_by', {
            outcome: t(OUTCOME_KEYS[approval.outcome] ?? approval.outcome),
            who: approval.decided_by ?? '—',
            when: when(approval.decided_at),
          })}
          {approval.on_behalf_of && <> {t('ui_vote_on_behalf_of', { who: approval.on_behalf_of })}</>}
          {approval.comment && <q>{approval.comment}</q>}
        </p>
      )}
    </article>
  );
}
