// Run with input: the trigger's input as JSON, opened with the walk panel's sample or the last input
// this flow ran with here (flows/runInput.ts); checked before anything is sent (a sentence from the
// catalog with the line and column, never the parser's English); the run starts with it and the page goes
// to the run. The flow format declares no input schema, so the input is JSON, not fields.
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { startRun } from '../api/runs';
import { failureSentence } from '../api/failure';
import { parseInput } from '../walk/walk';
import { useWalk } from '../walk/store';
import { Modal } from './Modal';
import { firstInput, lastInput, rememberInput } from './runInput';

export function RunDialog({ flowId, onClose }: { flowId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const sample = useWalk((s) => s.sample);
  const [last] = useState(() => lastInput(window.localStorage, flowId));
  const [text, setText] = useState(() => firstInput(sample, last));
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function start() {
    const parsed = parseInput(text);
    if (!('input' in parsed)) {
      setProblem(parsed.at ? t('ui_run_input_invalid_at', { ...parsed.at }) : t('ui_run_input_invalid'));
      return;
    }
    setProblem(null);
    setBusy(true);
    try {
      const started = await startRun(flowId, parsed.input);
      rememberInput(window.localStorage, flowId, text);
      void navigate(`/runs/${started.run}`);
    } catch (failure) {
      setProblem(failureSentence(failure, t));
      setBusy(false);
    }
  }

  const offers = [
    { key: 'ui_run_input_use_sample', text: sample },
    { key: 'ui_run_input_use_last', text: last ?? '' },
  ].filter((offer) => offer.text.trim() && offer.text !== text);
  return (
    <Modal titleId="run-title" onClose={onClose}>
      <form
        className="run-dialog"
        onSubmit={(e) => {
          e.preventDefault();
          void start();
        }}
      >
        <h2 id="run-title">{t('ui_run_input_title')}</h2>
        <label className="field">
          {t('ui_run_input_label')}
          <textarea
            translate="no"
            rows={8}
            value={text}
            spellCheck={false}
            onChange={(e) => setText(e.target.value)}
            aria-describedby="run-input-hint"
            autoFocus
          />
        </label>
        <p id="run-input-hint" className="hint">
          {t('ui_run_input_hint')}
        </p>
        {offers.length > 0 && (
          <div className="row">
            {offers.map((offer) => (
              <button key={offer.key} type="button" onClick={() => setText(offer.text)}>
                {t(offer.key)}
              </button>
            ))}
          </div>
        )}
        {problem && <p role="alert">{problem}</p>}
        <div className="row">
          <button type="submit" className="primary" disabled={busy} aria-busy={busy}>
            {t('ui_run_input_start')}
          </button>
          <button type="button" onClick={onClose}>
            {t('ui_dialog_cancel')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
