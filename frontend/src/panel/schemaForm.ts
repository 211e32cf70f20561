// From a node type's JSON Schema (GET /api/schemas/{type}) to what @rjsf/core draws: the schema without
// the keywords ajv's default draft does not know, and a uiSchema whose every label and choice comes from
// the catalogs (the schema's own words are English and for developers).
import type { RJSFSchema, UiSchema } from '@rjsf/utils';

/** Catalog keys of the config fields of every node type (written out so the catalog guard sees them). */
export const FIELD_KEYS: Record<string, string> = {
  approvers: 'ui_field_approvers',
  args: 'ui_field_args',
  as: 'ui_field_as',
  body: 'ui_field_body',
  channel: 'ui_field_channel',
  cron: 'ui_field_cron',
  deadline: 'ui_field_deadline',
  duration: 'ui_field_duration',
  explanation: 'ui_field_explanation',
  headers: 'ui_field_headers',
  items: 'ui_field_items',
  kind: 'ui_field_kind',
  left: 'ui_field_left',
  level: 'ui_field_level',
  message: 'ui_field_message',
  method: 'ui_field_method',
  on_timeout: 'ui_field_on_timeout',
  op: 'ui_field_op',
  rest: 'ui_field_rest',
  record_input: 'ui_field_record_input',
  right: 'ui_field_right',
  server: 'ui_field_server',
  status: 'ui_field_status',
  template: 'ui_field_template',
  timeout_s: 'ui_field_timeout_s',
  timezone: 'ui_field_timezone',
  title: 'ui_field_title',
  to: 'ui_field_to',
  until: 'ui_field_until',
  url: 'ui_field_url',
  values: 'ui_field_values',
  while: 'ui_field_while',
};

/** Catalog keys of the choices of enum fields; values not listed (HTTP methods) are shown as they are. */
export const CHOICE_KEYS: Record<string, Record<string, string>> = {
  op: {
    eq: 'ui_choice_op_eq',
    ne: 'ui_choice_op_ne',
    lt: 'ui_choice_op_lt',
    le: 'ui_choice_op_le',
    gt: 'ui_choice_op_gt',
    ge: 'ui_choice_op_ge',
    contains: 'ui_choice_op_contains',
    exists: 'ui_choice_op_exists',
  },
  kind: {
    manual: 'ui_choice_kind_manual',
    webhook: 'ui_choice_kind_webhook',
    schedule: 'ui_choice_kind_schedule',
  },
  on_timeout: {
    approve: 'timeout_rule_approve',
    reject: 'timeout_rule_reject',
    skip: 'timeout_rule_skip',
  },
  level: {
    debug: 'ui_choice_level_debug',
    info: 'ui_choice_level_info',
    warning: 'ui_choice_level_warning',
    error: 'ui_choice_level_error',
  },
  channel: { webhook: 'ui_choice_kind_webhook', email: 'ui_choice_channel_email' },
  status: { succeeded: 'run_status_succeeded', failed: 'run_status_failed' },
  rest: { cancel: 'ui_choice_rest_cancel', continue: 'ui_choice_rest_continue' },
};

type Translate = (key: string) => string;

/** The schema for rjsf: `$schema`/`$id` dropped (ajv8's default draft would refuse 2020-12's URI), enums
 * turned into `oneOf` with translated titles so the select shows words, not codes. The rules between
 * fields (`if`/`then`/`else`, a `oneOf` or `anyOf` of the whole config) are dropped too: rjsf would draw
 * them as untitled "Option 1 / Option 2" selectors or guess a branch, the server's findings say when they
 * are broken, and which fields apply is the uiSchema's business (`uiSchemaFor`) or an own panel's. */
export function prepareSchema(schema: Record<string, unknown>, t: Translate): RJSFSchema {
  const { $schema: _s, $id: _i, title: _title, description: _d, ...kept } = schema;
  const { if: _if, then: _then, else: _else, oneOf: _one, anyOf: _any, allOf: _all, ...rest } = kept;
  const properties = (rest.properties ?? {}) as Record<string, Record<string, unknown>>;
  const translated: Record<string, unknown> = {};
  for (const [name, described] of Object.entries(properties)) {
    // The schema's descriptions are English notes for developers; the field's label says enough.
    const { description: _about, ...property } = described;
    const choices = CHOICE_KEYS[name];
    const values = property.enum as unknown[] | undefined;
    if (property.type === undefined && !values && !property.oneOf) {
      // "Any JSON value" (an http body): the editor offers text, which is a JSON value and a template.
      translated[name] = { type: 'string' };
    } else if (choices && values) {
      const { enum: _e, ...kept } = property;
      // rjsf draws a oneOf of consts as a select only when it knows the field's type.
      const type = kept.type ?? (values.every((v) => typeof v === 'string') ? 'string' : undefined);
      translated[name] = {
        ...kept,
        ...(type ? { type } : {}),
        oneOf: values.map((value) => ({
          const: value,
          title: choices[String(value)] ? t(choices[String(value)] as string) : String(value),
        })),
      };
    } else {
      translated[name] = property;
    }
  }
  return { ...rest, properties: translated } as RJSFSchema;
}

/** The fields that hold templates, top level and one level down (a set's values, a condition in `while`,
 * an http request's headers): they get the completing widget. */
export const TEMPLATE_FIELDS = new Set([
  'title',
  'explanation',
  'message',
  'body',
  'url',
  'left',
  'right',
  'items',
  'until',
  'to',
]);
const TEMPLATE_MAPS = new Set(['values', 'headers', 'args']);

/** `ui` with `widget` on every template field of `schema` (multi-line ones say so in its options). */
export function withTemplateWidget(ui: UiSchema, schema: Record<string, unknown>, widget: unknown): UiSchema {
  const next: UiSchema = { ...ui };
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  for (const name of Object.keys(properties)) {
    const field = { ...(next[name] as UiSchema) };
    if (TEMPLATE_FIELDS.has(name))
      Object.assign(field, {
        'ui:widget': widget,
        'ui:options': { multiline: field['ui:widget'] === 'textarea' },
      });
    else if (TEMPLATE_MAPS.has(name)) field.additionalProperties = { 'ui:widget': widget };
    else if (name === 'while') {
      field.left = { 'ui:widget': widget };
      field.right = { 'ui:widget': widget };
    }
    next[name] = field;
  }
  return next;
}

/** The fields that apply only to some values of another: a trigger's cron and time zone are a schedule's. */
const ONLY_WHEN: Record<string, [string, unknown]> = {
  cron: ['kind', 'schedule'],
  timezone: ['kind', 'schedule'],
};

function applies(name: string, config: Record<string, unknown>): boolean {
  const rule = ONLY_WHEN[name];
  return !rule || config[rule[0]] === rule[1];
}

/** `config` without the fields that do not apply to it (a manual trigger's leftover cron): a field the
 * form hides must not stay in the document, where it would be a finding the author cannot see. */
export function withoutUnused(type: string, config: Record<string, unknown>): Record<string, unknown> {
  if (type !== 'trigger') return config;
  return Object.fromEntries(Object.entries(config).filter(([name]) => applies(name, config)));
}

export function uiSchemaFor(
  schema: Record<string, unknown>,
  t: Translate,
  config: Record<string, unknown> = {},
): UiSchema {
  const ui: UiSchema = {
    'ui:submitButtonOptions': { norender: true },
    'ui:title': '',
    'ui:description': '',
    // rjsf names a new value of a set `newKey`; `newKey_1` after it is at least a valid name.
    'ui:duplicateKeySuffixSeparator': '_',
  };
  for (const name of Object.keys((schema.properties ?? {}) as object)) {
    const key = FIELD_KEYS[name];
    // A field without a title in the catalogs shows none rather than its internal key.
    ui[name] = { 'ui:title': key ? t(key) : '', 'ui:description': '' };
    if (['explanation', 'message', 'body'].includes(name)) ui[name]['ui:widget'] = 'textarea';
    if (name === 'method') ui[name]['ui:widget'] = 'verbatim';
    if (!applies(name, config)) ui[name]['ui:widget'] = 'hidden';
  }
  return ui;
}
