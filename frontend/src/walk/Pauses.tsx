// The approvals a sample walk waits at, each with its answers. One pause walks on at the answer's click;
// several (the branches of a parallel) are answered each, and the walk goes on once all have an answer,
// or earlier with those chosen so far. Answers are sent in the order the pauses are listed (branch order).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FlowDocument } from '../flows/document';
import type { Answer, Outcome, Pause } from './walk';

interface Props {
  pending: Pause[];
  doc: FlowDocument;
  busy: boolean;
  onAnswer: (answers: Answer[]) => void;
}

export function Pauses({ pending, doc, busy, onAnswer }: Props) {
  const { t } = useTranslation();
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
        const outcomes: Outcome[] = node?.config.on_timeout
          ? ['approve', 'reject', 'timeout']
          : ['approve', 'reject'];
        const name = node?.label ?? pause.node;
        return (
          <div
            key={`${pause.node}:${pause.visit}`}
            role="group"
            aria-label={t('ui_walk_pause_node', { node: name })}
            data-node={pause.node}
          >
            <p>{t('ui_walk_paused', { node: name })}</p>
            <div className="row">
              {outcomes.map((outcome) => (
                <button
                  key={outcome}
                  type="button"
                  disabled={busy}
                  aria-pressed={pending.length > 1 ? chosen[place] === outcome : undefined}
                  onClick={() => choose(place, outcome)}
                >
                  {t(ANSWER_KEYS[outcome])}
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

const ANSWER_KEYS: Record<Outcome, string> = {
  approve: 'ui_walk_answer_approve',
  reject: 'ui_walk_answer_reject',
  timeout: 'ui_walk_answer_timeout',
};
