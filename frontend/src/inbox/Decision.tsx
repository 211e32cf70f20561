// Approve or reject, with an optional comment and a confirmation step. A decision that lost the race
// (409) says who decided what and when. Opening a page never decides: only this POST does.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, ApiError, unwrap } from '../api/client';
import { failureSentence } from '../api/failure';
import { OUTCOME_KEYS, when } from '../runs/format';

export type Choice = 'approve' | 'reject';

interface Standing {
  outcome: string;
  decided_by: string | null;
  decided_at: string;
}

interface Props {
  approvalId: number;
  choice: Choice | null;
  onChoose: (choice: Choice | null) => void;
}

export function Decision({ approvalId, choice, onChoose }: Props) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [comment, setComment] = useState('');
  const decide = useMutation({
    mutationFn: async (outcome: Choice) =>
      unwrap(
        await api.POST('/api/approvals/{approval_id}/decision', {
          params: { path: { approval_id: approvalId } },
          body: comment ? { outcome, comment } : { outcome },
        }),
      ),
    // After a decision the card shows the one that stands; after a lost race it keeps saying so here.
    onSettled: (_data, error) => {
      void queries.invalidateQueries({ queryKey: ['inbox'] });
      if (!error) void queries.invalidateQueries({ queryKey: ['approval', approvalId] });
    },
  });

  const failure = decide.error;
  const standing =
    failure instanceof ApiError && failure.code === 'approval_already_decided'
      ? (failure.detail as { standing?: Standing } | null)?.standing
      : undefined;
  if (standing) {
    return (
      <p role="alert" className="already-decided">
        {t('ui_inbox_already_decided', {
          who: standing.decided_by ?? '—',
          when: when(standing.decided_at),
          outcome: t(OUTCOME_KEYS[standing.outcome] ?? standing.outcome),
        })}
      </p>
    );
  }
  if (decide.isSuccess) {
    // A vote towards a quorum leaves the approval open: say so rather than "decided".
    const settled = (decide.data as { outcome?: string | null } | undefined)?.outcome != null;
    return <p role="status">{t(settled ? 'ui_inbox_decided' : 'ui_inbox_vote_counted')}</p>;
  }
  return (
    <div className="decision">
      <label>
        {t('ui_inbox_comment')}
        <textarea value={comment} maxLength={2000} onChange={(e) => setComment(e.target.value)} />
      </label>
      {choice === null ? (
        <div className="buttons">
          <button type="button" className="approve" onClick={() => onChoose('approve')}>
            {t('ui_inbox_approve')}
          </button>
          <button type="button" className="reject" onClick={() => onChoose('reject')}>
            {t('ui_inbox_reject')}
          </button>
        </div>
      ) : (
        <div className="confirm" role="group" aria-label={t('ui_inbox_confirm_label')}>
          <p>{choice === 'approve' ? t('ui_inbox_confirm_approve') : t('ui_inbox_confirm_reject')}</p>
          <button type="button" autoFocus onClick={() => decide.mutate(choice)} disabled={decide.isPending}>
            {t('ui_inbox_confirm')}
          </button>
          <button type="button" onClick={() => onChoose(null)}>
            {t('ui_inbox_back')}
          </button>
        </div>
      )}
      {failure && !standing && <p role="alert">{failureSentence(failure, t)}</p>}
    </div>
  );
}
