// The outcome that matters beside a run's status: its latest decision. A run whose invoice was rejected
// is not only "Succeeded"; the list shows the outcome, the run page says what was decided, by whom, when.
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { OUTCOME_KEYS, when } from './format';
import type { RunDecision } from './types';

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
