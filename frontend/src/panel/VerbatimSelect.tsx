// A select whose choices are words of a protocol, the same in every language (an http node's method):
// shown as they are, and marked translate="no" as authors' own words are, so that neither a translation
// tool nor the pseudo-locale's test takes them for text the catalogs lack.
import type { WidgetProps } from '@rjsf/utils';

export function VerbatimSelect({ id, value, options, disabled, readonly, onChange }: WidgetProps) {
  const chosen = value === undefined || value === null ? '' : String(value);
  return (
    <select
      id={id}
      className="form-control"
      translate="no"
      value={chosen}
      disabled={disabled || readonly}
      onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
    >
      {chosen === '' && <option value="" />}
      {(options.enumOptions ?? []).map((choice) => (
        <option key={String(choice.value)} value={String(choice.value)}>
          {choice.label}
        </option>
      ))}
    </select>
  );
}
