// The delay node's panel: wait for a time span (a number and a unit, stored as PT2H) or until a moment
// (a timestamp or a template). The schema says "exactly one of duration and until" as a oneOf, which a
// generated form drew as an untitled "Option 1 / Option 2" selector; here it is a choice in words, and
// choosing one drops the other from the config, so the document never holds both.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { setConfig, type FlowNode } from '../flows/document';
import { useEditor } from '../flows/store';
import { DurationField } from './DurationField';
import { FieldFindings } from './FieldFindings';
import { TemplateInput } from './TemplateInput';

type Way = 'duration' | 'until';
const WAYS: [Way, string][] = [
  ['duration', 'ui_delay_for'],
  ['until', 'ui_delay_until'],
];

export function DelayPanel({ node, readOnly }: { node: FlowNode; readOnly: boolean }) {
  const { t } = useTranslation();
  const config = node.config;
  const [way, setWay] = useState<Way>('until' in config ? 'until' : 'duration');

  function change(patch: Record<string, unknown>) {
    // An emptied field leaves the config rather than being stored as null.
    const next = Object.fromEntries(
      Object.entries({ ...config, ...patch }).filter(([, value]) => value !== null && value !== undefined),
    );
    const { apply, doc } = useEditor.getState();
    apply(setConfig(doc, node.id, next));
  }

  function choose(next: Way) {
    setWay(next);
    // The other way's value goes: a delay has exactly one of them.
    if (next === 'duration' && 'until' in config) change({ until: undefined });
    if (next === 'until' && 'duration' in config) change({ duration: undefined });
  }

  return (
    <div className="delay-panel">
      <fieldset>
        <legend>{t('ui_delay_way')}</legend>
        {WAYS.map(([value, key]) => (
          <label key={value} className="inline">
            <input
              type="radio"
              name={`delay-${node.id}`}
              value={value}
              checked={way === value}
              disabled={readOnly}
              onChange={() => choose(value)}
            />
            {t(key)}
          </label>
        ))}
      </fieldset>
      {way === 'duration' ? (
        <DurationField
          legend="ui_field_duration"
          value={typeof config.duration === 'string' ? config.duration : null}
          disabled={readOnly}
          onChange={(duration) => change({ duration })}
          nodeId={node.id}
          field="duration"
        />
      ) : (
        <div className="field">
          <label htmlFor={`delay-${node.id}-until`}>{t('ui_field_until')}</label>
          <TemplateInput
            id={`delay-${node.id}-until`}
            nodeId={node.id}
            value={typeof config.until === 'string' ? config.until : ''}
            multiline={false}
            disabled={readOnly}
            onChange={(until) => change({ until: until === '' ? undefined : until })}
          />
          <p className="hint">{t('ui_delay_until_help')}</p>
          <FieldFindings nodeId={node.id} field="until" />
        </div>
      )}
    </div>
  );
}
