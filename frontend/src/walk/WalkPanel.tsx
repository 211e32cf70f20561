// The side panel's "Walk with sample input": the author types the trigger's input as JSON and sees the
// path the walker would take, each visit with what it did, and the end; the approvals and event waits it
// stops at (several in a parallel) ask for their answers, and it walks again from the start with them. An
// edit of the flow clears the walk, which showed the old one; moving cards does not (walkShape).
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureSentence } from '../api/failure';
import { useEditor } from '../flows/store';
import { endLines, parseInput, visitRows, walkSample, walkShape, type Answer } from './walk';
import { Pauses } from './Pauses';
import { useWalk } from './store';

export function WalkPanel() {
  const { t, i18n } = useTranslation();
  const doc = useEditor((s) => s.doc);
  const flowId = useEditor((s) => s.flowId);
  const { result, answers, show, clear, sample: text, setSample: setText } = useWalk();
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [walks, setWalks] = useState(0); // each walk's pauses are answered afresh

  const shape = useMemo(() => walkShape(doc), [doc]);
  useEffect(() => clear(), [shape, clear]);

  async function walk(given: Answer[]) {
    const parsed = parseInput(text);
    if (!('input' in parsed)) {
      setProblem(parsed.at ? t('ui_walk_input_invalid_at', { ...parsed.at }) : t('ui_walk_input_invalid'));
      return;
    }
    setProblem(null);
    setBusy(true);
    try {
      show(await walkSample(doc, flowId, parsed.input, given, i18n.language), given);
      setWalks((n) => n + 1);
    } catch (failure) {
      clear();
      setProblem(failureSentence(failure, t));
    } finally {
      setBusy(false);
    }
  }

  const pending = result?.status === 'waiting' ? result.pending : [];
  const label = (id: string) => doc.nodes.find((n) => n.id === id)?.label ?? id;

  return (
    <section className="walk" aria-labelledby="walk-title">
      <h2 id="walk-title">{t('ui_walk_title')}</h2>
      <label className="field">
        {t('ui_walk_input')}
        <textarea
          translate="no"
          rows={4}
          value={text}
          spellCheck={false}
          onChange={(e) => setText(e.target.value)}
        />
      </label>
      <div className="row">
        <button type="button" onClick={() => void walk([])} disabled={busy || !doc.nodes.length}>
          {t('ui_walk_start')}
        </button>
        <button type="button" onClick={clear} disabled={!result}>
          {t('ui_walk_clear')}
        </button>
      </div>
      {problem && <p role="alert">{problem}</p>}
      <div aria-live="polite" className="walk-result">
        {result?.status === 'succeeded' && <p>{t('ui_walk_succeeded', { count: result.visits.length })}</p>}
        {result?.status === 'failed' &&
          endLines(result.journal).map((line, i) => (
            <p key={i}>{t('ui_walk_failed', { reason: line.message })}</p>
          ))}
        {pending.length > 0 && (
          <Pauses
            key={walks}
            pending={pending}
            doc={doc}
            busy={busy}
            onAnswer={(given) => void walk([...answers, ...given])}
          />
        )}
      </div>
      {result && (
        <ol className="walk-visits" aria-label={t('ui_walk_visits')}>
          {visitRows(result.journal).map((row) => (
            <li key={row.visit} value={row.visit} data-node={row.node}>
              <span translate="no">{label(row.node)}</span>
              {row.lines.length > 0 && (
                <ul>
                  {row.lines.map((line, i) => (
                    <li key={i} data-code={line.code}>
                      {line.message}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
