// The pauses a sample walk waits at, each with its answers: an approval's (approve, reject, and the
// deadline passing when it has an on_timeout rule), a wait_event's (each event it lists arriving, and its
// timeout passing when it has one). One pause walks on at the answer's click;
// several (the branches of a parallel) are answered each, and the walk goes on once all have an answer,
// or earlier with those chosen so far. Answers are sent in the order the pauses are listed (branch order).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FlowDocument } from '../flows/document';
import { answersOf, type Answer, type Outcome, type Pause } from './walk';

interface Props {
  pending: Pause[];
  doc: FlowDocument;
  busy: boolean;
  onAnswer: (answers: Answer[]) => void;
}

export function Pauses({ pending, doc, busy, onAnswer }: Props) {
  const { t } = useTranslation();
  // An event's name is the author's own word (as a node's id is), set into the catalog's sentence.
  const answerLabel = (outcome: Outcome, waitsForEvent: boolean) => {
    if (!waitsForEvent) return t(APPROVAL_KEYS[outcome] ?? outcome);
    if (outcome === 'timeout') return t('ui_walk_answer_event_timeout');
    return t('ui_walk_answer_event', { event: outcome });
  };
  // By the pause's place in the list: a loop inside a branch can wait at the same node twice.
  const [chosen, setChosen] = useState<(Outcome | undefined)[]>([]);
  const nodeOf = (id: string) => doc.nodes.find((n) => n.id === id);
  const answers = (picked: (Outcome | undefined)[]) =>
    pending.flatMap((pause, i) => {
      const outcome = picked[i];
      return outcome ? [{ node: pause.node, outcome }] : [];
    });

  function choose(place: number, outcome: Outcome) {
    const picked = [...chosen];
    picked[place] = outcome;
    setChosen(picked);
    if (pending.every((_, i) => picked[i])) onAnswer(answers(picked));
  }

  return (
    <div className="walk-pause">
      {pending.length > 1 && <p>{t('ui_walk_paused_several', { count: pending.length })}</p>}
      {pending.map((pause, place) => {
        const node = nodeOf(pause.node);
        const outcomes = answersOf(node);
        const name = node?.label ?? pause.node;
        const waitsForEvent = node?.type === 'wait_event';
        return (
          <div
            key={`${pause.node}:${pause.visit}`}
            role="group"
            aria-label={t(waitsForEvent ? 'ui_walk_pause_event_node' : 'ui_walk_pause_node', { node: name })}
            data-node={pause.node}
          >
            <p>{t(waitsForEvent ? 'ui_walk_paused_event' : 'ui_walk_paused', { node: name })}</p>
            <div className="row">
              {outcomes.map((outcome) => (
                <button
                  key={outcome}
                  type="button"
                  disabled={busy}
                  aria-pressed={pending.length > 1 ? chosen[place] === outcome : undefined}
                  onClick={() => choose(place, outcome)}
                >
                  {answerLabel(outcome, waitsForEvent)}
                </button>
              ))}
            </div>
          </div>
        );
      })}
      {pending.length > 1 && (
        <button
          type="button"
          disabled={busy || answers(chosen).length === 0}
          onClick={() => onAnswer(answers(chosen))}
        >
          {t('ui_walk_go_on')}
        </button>
      )}
    </div>
  );
}

const APPROVAL_KEYS: Record<string, string> = {
  approve: 'ui_walk_answer_approve',
  reject: 'ui_walk_answer_reject',
  timeout: 'ui_walk_answer_timeout',
};
