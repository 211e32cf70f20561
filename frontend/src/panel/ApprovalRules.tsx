// The approval's further rules: how many must approve, when a reject decides, whether the run's starter
// and the version's author may decide, reminders, and escalation. Empty fields are left out of the
// document, so a node without them means what it meant before they existed. Reminders and escalation are
// durations, entered as every duration of the editor is (DurationField).
import { useTranslation } from 'react-i18next';
import { DurationField } from './DurationField';
import { FieldFindings } from './FieldFindings';

interface Props {
  config: Record<string, unknown>;
  nodeId: string;
  readOnly: boolean;
  change: (patch: Record<string, unknown>) => void;
}

function list(text: string): string[] | undefined {
  const items = text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  return items.length ? items : undefined;
}

export function ApprovalRules({ config, nodeId, readOnly, change }: Props) {
  const { t } = useTranslation();
  const quorum = typeof config.quorum === 'number' ? config.quorum : 1;
  const reminders = (config.remind_after as string[] | undefined) ?? [];
  const escalateTo = (config.escalate_to as string[] | undefined) ?? [];
  return (
    <fieldset className="approval-rules">
      <legend>{t('ui_field_approval_rules')}</legend>
      <label className="field">
        {t('ui_field_quorum')}
        <input
          type="number"
          min={1}
          max={100}
          value={quorum}
          disabled={readOnly}
          onChange={(e) => {
            const value = Number(e.target.value);
            change({ quorum: value > 1 ? value : undefined });
          }}
        />
      </label>
      <FieldFindings nodeId={nodeId} field="quorum" />
      <label className="field">
        {t('ui_field_reject_rule')}
        <select
          value={String(config.reject ?? 'any')}
          disabled={readOnly}
          onChange={(e) => change({ reject: e.target.value === 'quorum' ? 'quorum' : undefined })}
        >
          <option value="any">{t('ui_choice_reject_any')}</option>
          <option value="quorum">{t('ui_choice_reject_quorum')}</option>
        </select>
      </label>
      <label className="inline">
        <input
          type="checkbox"
          name={`self-${nodeId}`}
          checked={config.allow_self_approval === true}
          disabled={readOnly}
          onChange={(e) => change({ allow_self_approval: e.target.checked ? true : undefined })}
        />
        {t('ui_field_allow_self_approval')}
      </label>
      <fieldset className="reminders">
        <legend>{t('ui_field_reminders')}</legend>
        {reminders.map((reminder, i) => (
          <div key={i} className="reminder">
            <DurationField
              legend="ui_reminder_number"
              number={i + 1}
              unit="hours"
              value={reminder}
              disabled={readOnly}
              onChange={(value) =>
                change({ remind_after: reminders.map((r, j) => (j === i ? (value ?? '') : r)) })
              }
            />
            <button
              type="button"
              disabled={readOnly}
              onClick={() => {
                const left = reminders.filter((_, j) => j !== i);
                change({ remind_after: left.length ? left : undefined });
              }}
            >
              {t('ui_reminder_remove', { number: i + 1 })}
            </button>
          </div>
        ))}
        <button
          type="button"
          disabled={readOnly || reminders.length >= 10}
          onClick={() => change({ remind_after: [...reminders, 'P1D'] })}
        >
          {t('ui_reminder_add')}
        </button>
        <FieldFindings nodeId={nodeId} field="remind_after" />
      </fieldset>
      <DurationField
        legend="ui_field_escalate_after"
        empty="ui_escalate_after_empty"
        unit="days"
        value={typeof config.escalate_after === 'string' ? config.escalate_after : null}
        disabled={readOnly}
        onChange={(value) => change({ escalate_after: value ?? undefined })}
        nodeId={nodeId}
        field="escalate_after"
      />
      <label className="field">
        {t('ui_field_escalate_to')}
        <input
          defaultValue={escalateTo.join(', ')}
          placeholder="group:leads"
          disabled={readOnly}
          onBlur={(e) => change({ escalate_to: list(e.target.value) })}
        />
      </label>
    </fieldset>
  );
}
