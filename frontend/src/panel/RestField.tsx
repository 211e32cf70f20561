// A parallel's `rest`: what its branches still open do once its wait rule is met. `cancel` (the default,
// so it leaves the config) cancels them; `continue` leaves them running while the run goes on after
// `done`. With the rule `all` no branch is left, so the choice is disabled there (the validator would
// say `parallel_rest_needs_wait`).
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { waitRule } from '../canvas/waitRule';

type Rest = 'cancel' | 'continue';

interface Props {
  config: Record<string, unknown>;
  disabled: boolean;
  onChange: (rest: Rest) => void;
}

export function RestField({ config, disabled, onChange }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const rest: Rest = config.rest === 'continue' ? 'continue' : 'cancel';
  return (
    <label className="field" htmlFor={id}>
      {t('ui_field_rest')}
      <select
        id={id}
        value={rest}
        disabled={disabled || (waitRule(config) === 'all' && rest === 'cancel')}
        onChange={(e) => onChange(e.target.value === 'continue' ? 'continue' : 'cancel')}
      >
        <option value="cancel">{t('ui_choice_rest_cancel')}</option>
        <option value="continue">{t('ui_choice_rest_continue')}</option>
      </select>
    </label>
  );
}
