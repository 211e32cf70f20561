// The one field for every duration of the flow format (a delay, an approval's deadline, reminders and
// escalation, a wait_event's time-out and keeping): a number and a unit in the reader's language, stored
// as the ISO 8601 duration the document keeps (PT2H). A duration of several parts (P1DT2H, written by
// hand) is said in words above the field and kept until the author types a new number.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { durationWords, formatDuration, parseDuration, type Unit } from './duration';
import { FieldFindings } from './FieldFindings';

const UNIT_KEYS: Record<Unit, string> = {
  seconds: 'ui_duration_seconds',
  minutes: 'ui_duration_minutes',
  hours: 'ui_deadline_hours',
  days: 'ui_deadline_days',
  weeks: 'ui_duration_weeks',
};

interface Props {
  /** The field's visible name (a catalog key). */
  legend: string;
  /** What an empty amount means (a catalog key), if the field may be empty. */
  empty?: string;
  value: string | null;
  disabled: boolean;
  onChange: (value: string | null) => void;
  /** The node and the config key whose findings are shown under the field. */
  nodeId?: string;
  field?: string;
  /** The unit offered before any amount is typed. */
  unit?: Unit;
  /** The `{number}` of a legend that counts (the second reminder). */
  number?: number;
}

export function DurationField(props: Props) {
  const { legend, empty, value, disabled, onChange, nodeId, field } = props;
  const { t, i18n } = useTranslation();
  const parsed = value === null ? null : parseDuration(value);
  const words = value !== null && !parsed ? durationWords(value, i18n.language.replace('_', '-')) : null;
  // The unit chosen while the amount is empty (or not a number yet) is kept here.
  const [unit, setUnit] = useState<Unit>(parsed?.unit ?? props.unit ?? 'hours');
  const shownUnit = parsed?.unit ?? unit;
  // Text that is no duration at all is what the author typed: it stays in the box, under a finding.
  const amount = parsed ? parsed.amount : value !== null && words === null ? value : '';
  return (
    <fieldset className="duration">
      <legend>{t(legend, { number: props.number })}</legend>
      {words && <p className="hint">{t('ui_duration_now', { duration: words })}</p>}
      <div className="row">
        <label className="field">
          {t('ui_duration_amount')}
          <input
            inputMode="numeric"
            value={amount}
            disabled={disabled}
            onChange={(e) => onChange(formatDuration(e.target.value, shownUnit))}
          />
        </label>
        <label className="field">
          {t('ui_duration_unit')}
          <select
            value={shownUnit}
            disabled={disabled}
            onChange={(e) => {
              const next = e.target.value as Unit;
              setUnit(next);
              if (amount !== '') onChange(formatDuration(amount, next));
            }}
          >
            {Object.entries(UNIT_KEYS).map(([name, key]) => (
              <option key={name} value={name}>
                {t(key)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {empty && <p className="hint">{t(empty)}</p>}
      {nodeId && field && <FieldFindings nodeId={nodeId} field={field} />}
    </fieldset>
  );
}
