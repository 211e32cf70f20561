// A duration as people say it (minutes, hours or days), stored as the ISO 8601 duration the flow format
// wants (PT30M, PT4H, P2D); an empty amount is "none" (null). A duration this field cannot show (P1W2D)
// is kept and shown as it is, as the approval's deadline field does.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export type Unit = 'minutes' | 'hours' | 'days';
const SIMPLE = /^P(?:(\d+)D|T(\d+)H|T(\d+)M)$/;

export function parseDuration(value: string | null): { amount: string; unit: Unit } | null {
  if (value === null) return { amount: '', unit: 'hours' };
  const match = SIMPLE.exec(value);
  if (!match) return null;
  if (match[1] !== undefined) return { amount: match[1], unit: 'days' };
  if (match[2] !== undefined) return { amount: match[2], unit: 'hours' };
  return { amount: match[3] ?? '', unit: 'minutes' };
}

export function formatDuration(amount: string, unit: Unit): string | null {
  if (!/^\d+$/.test(amount) || Number(amount) === 0) return null;
  const n = Number(amount);
  return unit === 'days' ? `P${n}D` : unit === 'hours' ? `PT${n}H` : `PT${n}M`;
}

interface Props {
  /** The field's visible name (a catalog key). */
  legend: string;
  /** What an empty amount means (a catalog key). */
  empty: string;
  value: string | null;
  disabled: boolean;
  onChange: (value: string | null) => void;
}

export function DurationField({ legend, empty, value, disabled, onChange }: Props) {
  const { t } = useTranslation();
  const parsed = parseDuration(value);
  // The unit chosen while the amount is still empty (no duration yet) is kept here.
  const [unit, setUnit] = useState<Unit>(parsed?.unit ?? 'hours');
  const shown = { amount: parsed?.amount ?? '', unit: value !== null && parsed ? parsed.unit : unit };
  return (
    <fieldset className="duration">
      <legend>{t(legend)}</legend>
      {parsed === null && <p className="data">{value}</p>}
      <div className="row">
        <label className="field">
          {t('ui_duration_amount')}
          <input
            inputMode="numeric"
            value={shown.amount}
            disabled={disabled}
            onChange={(e) => onChange(formatDuration(e.target.value.trim(), shown.unit))}
          />
        </label>
        <label className="field">
          {t('ui_duration_unit')}
          <select
            value={shown.unit}
            disabled={disabled}
            onChange={(e) => {
              setUnit(e.target.value as Unit);
              onChange(formatDuration(shown.amount, e.target.value as Unit));
            }}
          >
            <option value="minutes">{t('ui_duration_minutes')}</option>
            <option value="hours">{t('ui_deadline_hours')}</option>
            <option value="days">{t('ui_deadline_days')}</option>
          </select>
        </label>
      </div>
      <p className="hint">{t(empty)}</p>
    </fieldset>
  );
}
