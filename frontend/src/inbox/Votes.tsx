// Each vote on an approval, in the order cast, and how many approvals the quorum still needs: every vote
// is its own record, shown as the audit keeps it (a delegate's with whom they stood in for).
import { useTranslation } from 'react-i18next';
import { when } from '../runs/format';
import type { Approval } from '../api/approvals';

// Each vote as one sentence, with whom a delegate stood in for inside it (never a fragment after it).
const VOTE_KEYS = {
  approve: ['ui_vote_approved', 'ui_vote_approved_on_behalf'],
  reject: ['ui_vote_rejected', 'ui_vote_rejected_on_behalf'],
} as const;

export function Votes({ approval }: { approval: Approval }) {
  const { t } = useTranslation();
  const votes = approval.votes ?? [];
  const quorum = approval.quorum ?? 1;
  if (quorum <= 1 && votes.length <= 1) return null;
  const approves = votes.filter((v) => v.vote === 'approve').length;
  return (
    <section className="votes" aria-label={t('ui_votes_title')}>
      <p>{t('ui_votes_count', { count: quorum, approves, quorum })}</p>
      <ol>
        {votes.map((vote) => (
          <li key={vote.id} className={vote.vote}>
            {t(VOTE_KEYS[vote.vote][vote.on_behalf_of ? 1 : 0], {
              who: vote.voter,
              delegator: vote.on_behalf_of ?? '',
              when: when(vote.cast_at),
            })}
            {vote.comment && <q>{vote.comment}</q>}
          </li>
        ))}
      </ol>
    </section>
  );
}
