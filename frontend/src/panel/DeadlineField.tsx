// A deadline as people say it (a number of hours or days), stored as the ISO 8601 duration the flow
// format wants (PT4H, P2D). A duration this field cannot show (P1W2D) is kept and shown as it is.
import { useTranslation } from 'react-i18next';

const SIMPLE = /^P(?:(\d+)D|T(\d+)H)$/;

export function parseDeadline(value: string | null): { amount: string; unit: 'hours' | 'days' } | null {
  if (value === null) return { amount: '', unit: 'days' };
  const match = SIMPLE.exec(value);
  if (!match) return null;
  return match[1] !== undefined
    ? { amount: match[1], unit: 'days' }
    : { amount: match[2] ?? '', unit: 'hours' };
}

export function formatDeadline(amount: string, unit: 'hours' | 'days'): string | null {
  if (!/^\d+$/.test(amount) || Number(amount) === 0) return null;
  return unit === 'days' ? `P${Number(amount)}D` : `PT${Number(amount)}H`;
}

interface Props {
  value: string | null;
  disabled: boolean;
  onChange: (value: string | null) => void;
}

export function DeadlineField({ value, disabled, onChange }: Props) {
  const { t } = useTranslation();
  const parsed = parseDeadline(value) ?? { amount: '', unit: 'days' as const };
  return (
    <fieldset>
      <legend>{t('ui_field_deadline')}</legend>
      {parseDeadline(value) === null && <p>{value}</p>}
      <div className="row">
        <input
          aria-label={t('ui_deadline_amount')}
          inputMode="numeric"
          value={parsed.amount}
          disabled={disabled}
          onChange={(e) => onChange(formatDeadline(e.target.value.trim(), parsed.unit))}
        />
        <select
          aria-label={t('ui_deadline_unit')}
          value={parsed.unit}
          disabled={disabled}
          onChange={(e) => onChange(formatDeadline(parsed.amount, e.target.value as 'hours' | 'days'))}
        >
          <option value="hours">{t('ui_deadline_hours')}</option>
          <option value="days">{t('ui_deadline_days')}</option>
        </select>
      </div>
    </fieldset>
  );
}
