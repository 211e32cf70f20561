// Approve or reject, with an optional comment and a confirmation that names what is decided. Everything
// here belongs to the one approval it is given: the parent mounts a new Decision for each approval id, so a
// choice or a comment can never outlive the request it was made for, and the request sends the id and
// digest of the approval this component rendered. A decision that lost the race (409) says who decided
// what and when. Opening a page never decides: only this POST does.
import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { failureSentence } from '../api/failure';
import { OUTCOME_KEYS, when } from '../runs/format';
import { approvalKeys, postDecision, type Approval, type DecisionBody } from '../api/approvals';
import { ShownValues } from './ShownValues';

export type Choice = 'approve' | 'reject';

/** What a page is told once a decision is recorded: on which approval, which way, and whether it settled
 * the approval (a vote towards a quorum leaves it open). */
export interface Decided {
  id: number;
  title: string;
  choice: Choice;
  settled: boolean;
}

interface Standing {
  outcome: string;
  decided_by: string | null;
  decided_at: string;
}

// The server found that the approval on the screen is not the one the request names, or not as it was
// shown: nothing was written, and the card is read again.
const STALE = new Set(['approval_changed', 'decision_approval_mismatch']);

interface Props {
  approval: Approval;
  /** The inbox's keys: a arms approve, r arms reject, Escape disarms (never while typing). */
  keys?: boolean;
  onDecided?: (decided: Decided) => void;
  /** A decision of this card is on its way (true) or came back refused (false): a list refreshed in
   * between may already lack the card, and the page must know the person took it out. */
  onSending?: (id: number, sending: boolean) => void;
}

export function Decision({ approval, keys = false, onDecided, onSending }: Props) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [choice, setChoice] = useState<Choice | null>(null);
  const [comment, setComment] = useState('');
  // A click that arrives while a decision is on its way is dropped before React re-renders the button.
  const sending = useRef(false);
  const decide = useMutation({
    mutationFn: (body: DecisionBody) => postDecision(body),
    onMutate: (body) => onSending?.(body.approval, true),
    onSuccess: (data, body) => {
      const settled = data.outcome !== null;
      onDecided?.({ id: body.approval, title: approval.title, choice: body.outcome, settled });
    },
    onError: (error, body) => {
      onSending?.(body.approval, false);
      sending.current = false;
      setChoice(null);
      if (error instanceof ApiError && STALE.has(error.code)) {
        void queries.invalidateQueries({ queryKey: approvalKeys.one(approval.id) });
      }
    },
    // After a decision the card shows the one that stands; after a lost race it keeps saying so here.
    onSettled: (_data, error) => {
      void queries.invalidateQueries({ queryKey: approvalKeys.inbox });
      if (!error) void queries.invalidateQueries({ queryKey: approvalKeys.one(approval.id) });
    },
  });
  const busy = decide.isPending || decide.isSuccess;

  useEffect(() => {
    if (!keys || busy) return;
    function onKey(event: KeyboardEvent) {
      const target = event.target as HTMLElement;
      if (target.closest('input, textarea, select') || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === 'a') setChoice('approve');
      else if (event.key === 'r') setChoice('reject');
      else if (event.key === 'Escape') setChoice(null);
      else return;
      event.preventDefault();
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [keys, busy]);

  function confirm(event: MouseEvent<HTMLButtonElement>, chosen: Choice) {
    // The second click of a double click (detail 2 and up) never confirms: the first one armed, or decided.
    if (event.detail > 1 || sending.current) return;
    sending.current = true;
    const body: DecisionBody = { outcome: chosen, approval: approval.id, seen: approval.digest };
    if (comment) body.comment = comment;
    decide.mutate(body);
  }

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
    const settled = decide.data.outcome !== null;
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
          <button type="button" className="approve" onClick={() => setChoice('approve')}>
            {t('ui_inbox_approve')}
          </button>
          <button type="button" className="reject" onClick={() => setChoice('reject')}>
            {t('ui_inbox_reject')}
          </button>
        </div>
      ) : (
        <div className={`confirm confirm-${choice}`} role="group" aria-label={t('ui_inbox_confirm_label')}>
          <p className="question">
            {t(choice === 'approve' ? 'ui_inbox_confirm_approve_title' : 'ui_inbox_confirm_reject_title', {
              title: approval.title,
            })}
          </p>
          <ShownValues items={approval.shown} compact />
          <div className="buttons">
            <button
              type="button"
              className={choice === 'approve' ? 'approve' : 'reject'}
              autoFocus
              disabled={decide.isPending}
              onClick={(event) => confirm(event, choice)}
            >
              {t('ui_inbox_confirm')}
            </button>
            <button type="button" onClick={() => setChoice(null)}>
              {t('ui_inbox_back')}
            </button>
          </div>
        </div>
      )}
      {failure && !standing && <p role="alert">{failureSentence(failure, t)}</p>}
    </div>
  );
}
