// One approval as an approver reads it: the question and explanation (rendered with the run's data when
// the run asked), the values the author chose to show, who started the run and when. An open approval
// says its deadline, counting down, and what happens then; a decided one says who decided what and when,
// and nothing of a deadline that no longer matters.
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { sentenceGap } from '../i18n/format';
import { TIMEOUT_KEYS, when } from '../runs/format';
import { outcomeSentence } from '../runs/RunDecision';
import { useRights } from '../runs/rights';
import type { Approval } from '../api/approvals';
import { Countdown } from './Countdown';
import { Decision, type Decided } from './Decision';
import { ShownValues } from './ShownValues';
import { Votes } from './Votes';
import './inbox.css';

interface Props {
  approval: Approval;
  /** The inbox's keys (a, r, Escape) act on this card. */
  keys?: boolean;
  onDecided?: (decided: Decided) => void;
  onSending?: (id: number, sending: boolean) => void;
}

export function ApprovalCard({ approval, keys = false, onDecided, onSending }: Props) {
  const { t } = useTranslation();
  const open = approval.outcome === null;
  const may = useRights();
  return (
    <article className="approval" aria-labelledby={`approval-${approval.id}`} data-approval={approval.id}>
      <h2 id={`approval-${approval.id}`} translate="no">
        {approval.title}
      </h2>
      {approval.explanation && (
        <p className="explanation" translate="no">
          {approval.explanation}
        </p>
      )}
      <ShownValues items={approval.shown} />
      <p>
        {t('ui_inbox_requested', { who: approval.started_by ?? '—', when: when(approval.requested_at) })}{' '}
        <Link to={`/runs/${approval.run_id}`}>{t('ui_run_title', { run: approval.run_id })}</Link>
      </p>
      {open &&
        (approval.deadline_at ? (
          <p className="deadline">
            <Countdown deadline={approval.deadline_at} />
            {sentenceGap()}
            {t(TIMEOUT_KEYS[approval.on_timeout ?? 'skip'] ?? '')}
          </p>
        ) : (
          <p className="deadline">{t('mail_approval_no_deadline')}</p>
        ))}
      <Votes approval={approval} />
      {open && may('decide', approval.flow_id) ? (
        <Decision approval={approval} keys={keys} onDecided={onDecided} onSending={onSending} />
      ) : open ? (
        // Readers of the flow (its editors, its auditors) see the request; only a decider is offered to decide.
        <p className="not-yours">{t('ui_approval_decide_right_missing')}</p>
      ) : (
        <p className="decided" role="status">
          {outcomeSentence({ ...approval, outcome: approval.outcome ?? '' }, t)}
          {approval.comment && <q>{approval.comment}</q>}
        </p>
      )}
    </article>
  );
}
