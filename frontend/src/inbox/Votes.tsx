// Each vote on an approval, in the order cast, and how many approvals the quorum still needs: every vote
// is its own record, shown as the audit keeps it (a delegate's with whom they stood in for).
import { useTranslation } from 'react-i18next';
import { when } from '../runs/format';
import type { Approval } from '../runs/types';

export function Votes({ approval }: { approval: Approval }) {
  const { t } = useTranslation();
  const votes = approval.votes ?? [];
  const quorum = approval.quorum ?? 1;
  if (quorum <= 1 && votes.length <= 1) return null;
  const approves = votes.filter((v) => v.vote === 'approve').length;
  return (
    <section className="votes" aria-label={t('ui_votes_title')}>
      <p>{t('ui_votes_count', { approves, quorum })}</p>
      <ol>
        {votes.map((vote) => (
          <li key={vote.id} className={vote.vote}>
            {t(vote.vote === 'approve' ? 'ui_vote_approved' : 'ui_vote_rejected', {
              who: vote.voter,
              when: when(vote.cast_at),
            })}
            {vote.on_behalf_of && <> {t('ui_vote_on_behalf_of', { who: vote.on_behalf_of })}</>}
            {vote.comment && <q>{vote.comment}</q>}
          </li>
        ))}
      </ol>
    </section>
  );
}
