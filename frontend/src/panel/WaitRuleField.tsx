// A parallel's or a join's wait rule: all, the first, or a number of them (stored as "all", "first" or
// an integer, the flow format's `wait`). A number larger than what can arrive is the validator's finding
// (`join_wait_invalid`); the field names the most there can be as a hint.
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { waitRule, type WaitRule } from '../canvas/waitRule';

interface Props {
  config: Record<string, unknown>;
  /** How many can arrive: a parallel's branches, a join's incoming wires; null over items (one each). */
  total: number | null;
  disabled: boolean;
  onChange: (wait: WaitRule) => void;
}

export function WaitRuleField({ config, total, disabled, onChange }: Props) {
  const { t } = useTranslation();
  const name = useId();
  const rule = waitRule(config);
  const count = typeof rule === 'number' ? rule : Math.min(2, Math.max(1, total ?? 2));
  return (
    <fieldset className="wait-rule">
      <legend>{t('ui_wait_title')}</legend>
      <label className="inline">
        <input
          type="radio"
          name={name}
          checked={rule === 'all'}
          disabled={disabled}
          onChange={() => onChange('all')}
        />
        {t('ui_wait_choice_all')}
      </label>
      <label className="inline">
        <input
          type="radio"
          name={name}
          checked={rule === 'first'}
          disabled={disabled}
          onChange={() => onChange('first')}
        />
        {t('ui_wait_choice_first')}
      </label>
      <label className="inline">
        <input
          type="radio"
          name={name}
          checked={typeof rule === 'number'}
          disabled={disabled}
          onChange={() => onChange(count)}
        />
        {t('ui_wait_choice_some')}
      </label>
      {typeof rule === 'number' && (
        <label className="field">
          {t('ui_wait_count')}
          <input
            type="number"
            min={1}
            step={1}
            value={rule}
            disabled={disabled}
            onChange={(e) => {
              const n = Number(e.target.value);
              if (Number.isInteger(n) && n >= 1) onChange(n);
            }}
          />
        </label>
      )}
      <p className="hint">
        {total === null ? t('ui_wait_total_items') : t('ui_wait_total', { branches: total })}
      </p>
    </fieldset>
  );
}
