// The wait_event node's panel: its event names (its ports), the key that picks this run's events (a
// template, with completion), how long to wait before `timeout`, and how long an event that comes before
// the run reaches the node is kept for it.
import { useTranslation } from 'react-i18next';
import { setConfig, type FlowNode } from '../flows/document';
import { useEditor } from '../flows/store';
import { DurationField } from './DurationField';
import { EventNames } from './EventNames';
import { TemplateInput } from './TemplateInput';

export function WaitEventPanel({ node, readOnly }: { node: FlowNode; readOnly: boolean }) {
  const { t } = useTranslation();
  const config = node.config;

  function change(patch: Record<string, unknown>) {
    // keep_early is optional: no duration leaves it out; timeout is always written (null: no time-out).
    const next = { ...config, ...patch };
    if (next.keep_early === null || next.keep_early === undefined) delete next.keep_early;
    const apply = useEditor.getState().apply;
    apply(setConfig(useEditor.getState().doc, node.id, next));
  }

  return (
    <div className="wait-event-panel">
      <p className="hint">{t('ui_event_help')}</p>
      <EventNames node={node} readOnly={readOnly} />
      <div className="field">
        <label htmlFor={`wait-event-${node.id}-key`}>{t('ui_event_key')}</label>
        <TemplateInput
          id={`wait-event-${node.id}-key`}
          nodeId={node.id}
          value={String(config.key ?? '')}
          multiline={false}
          disabled={readOnly}
          onChange={(key) => change({ key })}
        />
        <p className="hint">{t('ui_event_key_help')}</p>
      </div>
      <DurationField
        legend="ui_event_timeout"
        empty="ui_event_timeout_empty"
        value={typeof config.timeout === 'string' ? config.timeout : null}
        disabled={readOnly}
        onChange={(timeout) => change({ timeout })}
        nodeId={node.id}
        field="timeout"
      />
      <DurationField
        legend="ui_event_keep_early"
        empty="ui_event_keep_early_empty"
        value={typeof config.keep_early === 'string' ? config.keep_early : null}
        disabled={readOnly}
        onChange={(keep_early) => change({ keep_early })}
        nodeId={node.id}
        field="keep_early"
      />
    </div>
  );
}
