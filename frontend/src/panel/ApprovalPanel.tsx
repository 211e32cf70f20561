// The approval node's panel: what is asked (title, explanation), what the approvers see beside it, who
// may decide (users and groups), and what happens when nobody decides in time (a deadline and one of the
// three timeout exits).
import { useTranslation } from 'react-i18next';
import { setConfig, type FlowNode } from '../flows/document';
import { useEditor } from '../flows/store';
import { ApprovalRules } from './ApprovalRules';
import { TemplateInput } from './TemplateInput';
import { DurationField } from './DurationField';
import { FieldFindings } from './FieldFindings';
import { PrincipalPicker } from './PrincipalPicker';
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
      <PrincipalPicker
        legend="ui_field_approvers"
        principals={approvers}
        readOnly={readOnly}
        nodeId={node.id}
        field="approvers"
        onChange={(next) => change({ approvers: next })}
      />
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
