// The outcome that matters beside a run's status: its latest decision. A run whose invoice was rejected
// is not only "Succeeded"; the list shows the outcome, the run page says what was decided, by whom, when.
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { OUTCOME_KEYS, when } from './format';
import type { RunDecision } from '../api/runs';

export function decisionSentence(decision: RunDecision, t: TFunction): string {
  const values = {
    outcome: t(OUTCOME_KEYS[decision.outcome] ?? decision.outcome),
    title: decision.title,
    who: decision.decided_by ?? '',
    when: when(decision.decided_at),
  };
  // Nobody decides at a deadline: the sentence then names no person.
  return t(decision.decided_by ? 'ui_run_decision' : 'ui_run_decision_at_deadline', values);
}

/** One approval's outcome as a sentence: who decided (for whom, if a delegate did) and when, or only when
 * if nobody decided (a deadline, a cancelled run). The run page's approvals and the approval card. */
export function outcomeSentence(
  approval: {
    outcome: string;
    decided_by: string | null;
    decided_at: string | null;
    on_behalf_of?: string | null;
  },
  t: TFunction,
): string {
  const values = {
    outcome: t(OUTCOME_KEYS[approval.outcome] ?? approval.outcome),
    who: approval.decided_by ?? '',
    delegator: approval.on_behalf_of ?? '',
    when: when(approval.decided_at),
  };
  if (!approval.decided_by) return t('ui_inbox_ended_at', values);
  return t(approval.on_behalf_of ? 'ui_inbox_decided_on_behalf' : 'ui_inbox_decided_by', values);
}

/** The outcome as a tag (the runs list); the whole sentence is its accessible name and tooltip. */
export function DecisionTag({ decision }: { decision: RunDecision }) {
  const { t } = useTranslation();
  const sentence = decisionSentence(decision, t);
  return (
    <span className={`decision-tag decision-${decision.outcome}`} title={sentence} aria-label={sentence}>
      {t(OUTCOME_KEYS[decision.outcome] ?? decision.outcome)}
    </span>
  );
}

/** The decision as a sentence (the run page). */
export function DecisionLine({ decision }: { decision: RunDecision }) {
  const { t } = useTranslation();
  return (
    <p className={`run-decision decision-${decision.outcome}`} data-outcome={decision.outcome}>
      {decisionSentence(decision, t)}
    </p>
  );
}
