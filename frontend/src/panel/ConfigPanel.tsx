// The selected node's settings: a form generated from its type's JSON Schema (no hand-written form per
// type), except the approval node, whose panel is made for people who are not developers, and the own
// panels of ownPanels.tsx.
import Form from '@rjsf/core';
import { TranslatableString, englishStringTranslator, type ErrorSchema } from '@rjsf/utils';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { nodeSchemaQuery } from '../api/flows';
import { failureSentence } from '../api/failure';
import { setConfig, setLabel, type FlowNode } from '../flows/document';
import { useEditor } from '../flows/store';
import { ApprovalPanel } from './ApprovalPanel';
import { OWN_PANELS } from './ownPanels';
import { prepareSchema, uiSchemaFor, withTemplateWidget, withoutUnused } from './schemaForm';
import { usePlaced } from '../flows/findingSentences';
import { LABEL_FIELD, type Placed } from '../flows/findingText';
import { FieldFindings } from './FieldFindings';
import { FORM_BUTTONS } from './formButtons';
import { formValidator } from './formValidator';
import { TemplateWidget } from './TemplateWidget';
import { TriggerPanel } from './TriggerPanel';
import { VerbatimSelect } from './VerbatimSelect';

// rjsf's own words (its buttons), from the catalogs; anything else it says falls back to its English.
const FORM_STRINGS: Partial<Record<TranslatableString, string>> = {
  [TranslatableString.AddButton]: 'ui_form_add',
  [TranslatableString.AddItemButton]: 'ui_form_add',
  [TranslatableString.RemoveButton]: 'ui_form_remove',
  [TranslatableString.MoveUpButton]: 'ui_form_move_up',
  [TranslatableString.MoveDownButton]: 'ui_form_move_down',
  [TranslatableString.CopyButton]: 'ui_form_copy',
  [TranslatableString.KeyLabel]: 'ui_form_key',
  [TranslatableString.NewStringDefault]: 'ui_form_new_value',
};

const NO_CONST_DEFAULTS = { constAsDefaults: 'never' } as const;
const TEMPLATES = { ButtonTemplates: FORM_BUTTONS };
const WIDGETS = { verbatim: VerbatimSelect };
const NO_FINDINGS: Placed[] = [];

/** The findings on the form's fields, where rjsf shows a field's errors (under the field). */
function fieldErrors(placed: Placed[]): ErrorSchema {
  const errors: Record<string, { __errors: string[] }> = {};
  for (const p of placed)
    if (p.field && p.field !== LABEL_FIELD) (errors[p.field] ??= { __errors: [] }).__errors.push(p.sentence);
  return errors as ErrorSchema;
}

export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function ConfigPanel({ node, readOnly }: { node: FlowNode; readOnly: boolean }) {
  const { t } = useTranslation();
  const apply = useEditor((s) => s.apply);
  const schema = useQuery(nodeSchemaQuery(node.type));
  const prepared = useMemo(() => (schema.data ? prepareSchema(schema.data, t) : null), [schema.data, t]);
  const Own = OWN_PANELS[node.type];
  const ui = useMemo(
    () =>
      schema.data
        ? withTemplateWidget(uiSchemaFor(schema.data, t, node.config), schema.data, TemplateWidget)
        : null,
    [schema.data, t, node.config],
  );
  const placed = usePlaced((s) => s.byNode[node.id] ?? NO_FINDINGS);
  const extraErrors = useMemo(() => fieldErrors(placed), [placed]);

  return (
    <section className="config" aria-labelledby="config-title">
      <h2 id="config-title">{t('ui_panel_title', { type: t(`node_type_${node.type}`), id: node.id })}</h2>
      <label className="field">
        {t('ui_panel_label')}
        <input
          value={node.label ?? ''}
          disabled={readOnly}
          onChange={(e) => apply(setLabel(useEditor.getState().doc, node.id, e.target.value))}
        />
      </label>
      <FieldFindings nodeId={node.id} field={LABEL_FIELD} />
      {schema.error && <p role="alert">{failureSentence(schema.error, t)}</p>}
      <FieldFindings nodeId={node.id} field={null} />
      {node.type === 'approval' ? (
        <ApprovalPanel node={node} readOnly={readOnly} />
      ) : Own ? (
        <Own node={node} readOnly={readOnly} />
      ) : (
        prepared &&
        ui && (
          <Form
            schema={prepared}
            uiSchema={ui}
            formData={node.config}
            validator={formValidator}
            templates={TEMPLATES}
            widgets={WIDGETS}
            extraErrors={extraErrors}
            disabled={readOnly}
            noHtml5Validate
            // A select's choices are consts in a oneOf (schemaForm.ts), which rjsf would otherwise take as
            // defaults and write into the config the moment the form opens: selecting a node edited it.
            experimental_defaultFormStateBehavior={NO_CONST_DEFAULTS}
            showErrorList={false}
            idPrefix={`config-${node.id}`}
            formContext={{ nodeId: node.id }}
            translateString={(text, params) => {
              const key = FORM_STRINGS[text];
              // rjsf passes the one placeholder it has (the name of a set's value) as its first param.
              return key ? t(key, { key: params?.[0] }) : englishStringTranslator(text, params);
            }}
            onChange={({ formData }) => {
              const doc = useEditor.getState().doc;
              const current = doc.nodes.find((n) => n.id === node.id)?.config;
              const next = withoutUnused(node.type, formData as Record<string, unknown>);
              if (!sameJson(current, next)) apply(setConfig(doc, node.id, next));
            }}
          />
        )
      )}
      {node.type === 'trigger' && <TriggerPanel node={node} readOnly={readOnly} />}
    </section>
  );
}
