// The approval node's panel: what is asked (title, explanation), what the approvers see beside it, who
// may decide (users and groups), and what happens when nobody decides in time (a deadline and one of the
// three timeout exits).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { setConfig, type FlowNode } from '../flows/document';
import { useEditor } from '../flows/store';
import { ApprovalRules } from './ApprovalRules';
import { TemplateInput } from './TemplateInput';
import { DurationField } from './DurationField';
import { FieldFindings } from './FieldFindings';
import { ShownField } from './ShownField';

const EXITS = [
  ['approve', 'timeout_rule_approve'],
  ['reject', 'timeout_rule_reject'],
  ['skip', 'timeout_rule_skip'],
] as const;

export function ApprovalPanel({ node, readOnly }: { node: FlowNode; readOnly: boolean }) {
  const { t } = useTranslation();
  const apply = useEditor((s) => s.apply);
  const config = node.config;
  const approvers = (config.approvers as string[] | undefined) ?? [];
  const [kind, setKind] = useState<'user' | 'group'>('group');
  const [who, setWho] = useState('');

  function change(patch: Record<string, unknown>) {
    // Empty optional fields are left out of the document rather than stored as "".
    const next = Object.fromEntries(
      Object.entries({ ...config, ...patch }).filter(
        ([key, value]) => value !== undefined && (value !== '' || key === 'title'),
      ),
    );
    next.title ??= '';
    apply(setConfig(useEditor.getState().doc, node.id, next));
  }

  return (
    <div className="approval-panel">
      <div className="field">
        <label htmlFor={`approval-${node.id}-title`}>{t('ui_field_title')}</label>
        <TemplateInput
          id={`approval-${node.id}-title`}
          nodeId={node.id}
          value={String(config.title ?? '')}
          multiline={false}
          disabled={readOnly}
          onChange={(title) => change({ title })}
        />
        <FieldFindings nodeId={node.id} field="title" />
      </div>
      <div className="field">
        <label htmlFor={`approval-${node.id}-explanation`}>{t('ui_field_explanation')}</label>
        <TemplateInput
          id={`approval-${node.id}-explanation`}
          nodeId={node.id}
          value={String(config.explanation ?? '')}
          multiline
          disabled={readOnly}
          onChange={(explanation) => change({ explanation })}
        />
      </div>
      <ShownField nodeId={node.id} show={config.show} readOnly={readOnly} change={change} />
      <fieldset>
        <legend>{t('ui_field_approvers')}</legend>
        <ul className="chips">
          {approvers.map((principal) => (
            <li key={principal}>
              {principal.startsWith('group:')
                ? t('ui_approvers_group', { name: principal.slice(6) })
                : t('ui_approvers_user', { name: principal.slice(5) })}
              <button
                type="button"
                disabled={readOnly}
                aria-label={t('ui_approvers_remove', { name: principal })}
                onClick={() => change({ approvers: approvers.filter((p) => p !== principal) })}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
        <div className="row">
          <select
            aria-label={t('ui_approvers_kind')}
            value={kind}
            disabled={readOnly}
            onChange={(e) => setKind(e.target.value as 'user' | 'group')}
          >
            <option value="group">{t('ui_approvers_kind_group')}</option>
            <option value="user">{t('ui_approvers_kind_user')}</option>
          </select>
          <input
            aria-label={t('ui_approvers_name')}
            value={who}
            disabled={readOnly}
            onChange={(e) => setWho(e.target.value.trim())}
          />
          <button
            type="button"
            disabled={readOnly || !who}
            onClick={() => {
              const principal = `${kind}:${who}`;
              if (!approvers.includes(principal)) change({ approvers: [...approvers, principal] });
              setWho('');
            }}
          >
            {t('ui_approvers_add')}
          </button>
        </div>
        <FieldFindings nodeId={node.id} field="approvers" />
      </fieldset>
      <DurationField
        legend="ui_field_deadline"
        unit="days"
        nodeId={node.id}
        field="deadline"
        value={(config.deadline as string | null | undefined) ?? null}
        disabled={readOnly}
        onChange={(deadline) =>
          change(
            deadline
              ? { deadline, on_timeout: config.on_timeout ?? 'reject' }
              : { deadline: undefined, on_timeout: undefined },
          )
        }
      />
      {typeof config.deadline === 'string' && (
        <fieldset>
          <legend>{t('ui_field_on_timeout')}</legend>
          {EXITS.map(([exit, key]) => (
            <label key={exit} className="inline">
              <input
                type="radio"
                name={`timeout-${node.id}`}
                value={exit}
                checked={config.on_timeout === exit}
                disabled={readOnly}
                onChange={() => change({ on_timeout: exit })}
              />
              {t(key)}
            </label>
          ))}
        </fieldset>
      )}
      <ApprovalRules config={config} nodeId={node.id} readOnly={readOnly} change={change} />
    </div>
  );
}
