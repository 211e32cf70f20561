// What a finding says to a person. The API's findings carry a reason code and a JSON pointer for
// programs (`/nodes/1/config/duration`), and the validator's detail is its own English ("must match the
// pattern ^P(?!$)..."): the editor turns code and pointer into the field the finding is about and a
// sentence from the catalogs that names the node by its label and the field by its title and says what
// to do. A finding of another code keeps the server's sentence, with the node's label in it where the
// sentence names nothing but the node.
import type { Finding } from './findings';
import type { FlowDocument } from './document';
import { FIELD_KEYS } from '../panel/schemaForm';

export interface Placed {
  /** The node the finding is about, by id (null for the flow or a wire). */
  node: string | null;
  /** The config key it is about (`duration`), or null for the node as a whole. */
  field: string | null;
  sentence: string;
  code: string;
}

type Translate = (key: string, params?: Record<string, unknown>) => string;

/** The durations of the flow format, by config key: one way to say what to enter. */
const DURATIONS = new Set([
  'duration',
  'deadline',
  'timeout',
  'keep_early',
  'remind_after',
  'escalate_after',
]);

/** What to enter, by config key, for the keys whose value has a form of its own. */
const WHAT_TO_ENTER: Record<string, string> = {
  until: 'ui_finding_moment',
  cron: 'ui_finding_cron',
  timezone: 'ui_finding_timezone',
  url: 'ui_finding_url',
  values: 'ui_finding_names',
};

/** Titles of the config keys the generated forms do not list (the hand-made panels' fields). */
const MORE_TITLES: Record<string, string> = {
  timeout: 'ui_event_timeout',
  keep_early: 'ui_event_keep_early',
  remind_after: 'ui_field_reminders',
  escalate_after: 'ui_field_escalate_after',
  escalate_to: 'ui_field_escalate_to_whom',
  quorum: 'ui_field_quorum',
  record_input: 'ui_field_record_input',
  key: 'ui_event_key',
  events: 'ui_event_names',
  show: 'ui_show_legend',
  reject: 'ui_field_reject_rule',
  wait: 'ui_wait_title',
  undo: 'ui_event_undo',
  token: 'ui_people_token_id',
};

/** Findings of other codes that concern one field: the field, and the editor's sentence for it (null:
 * the server's, which says it well: "needs 3 approvers but names only 2 users"). The reminder's would
 * cite the duration as written (PT4H). */
const ON_FIELD: Record<string, [string, string | null]> = {
  approval_reminder_after_deadline: ['remind_after', 'ui_finding_reminder_late'],
  approval_escalation_after_deadline: ['escalate_after', 'ui_finding_escalation_late'],
  approval_quorum_unreachable: ['quorum', null],
};

/** The config key a pointer names: `/nodes/1/config/values/a-b` is `values`; the config itself is null. */
export function fieldOf(pointer: string | null): string | null {
  const match = pointer === null ? null : /^\/nodes\/\d+\/config\/([^/]+)/.exec(pointer);
  return match ? decodeURIComponent((match[1] as string).replace(/~1/g, '/').replace(/~0/g, '~')) : null;
}

export function fieldTitle(field: string, t: Translate): string {
  const key = FIELD_KEYS[field] ?? MORE_TITLES[field];
  return key ? t(key) : t('ui_finding_some_field');
}

/** The longest label the flow format allows (flow.schema.json); the one rule a label has. */
export const LABEL_LIMIT = 200;
/** How much of a long label names its node in a finding's sentence: a label may be 200 characters. */
const LABEL_SHOWN = 40;
/** The field a finding about the node's label is placed on: beside the label, not in the config's form. */
export const LABEL_FIELD = 'label';

/** A label as a finding names its node: a long one by its first characters (whole characters, not halves
 * of an emoji), without the spaces it ends in. */
export function shortened(label: string): string {
  const characters = Array.from(label.trim());
  if (characters.length <= LABEL_SHOWN) return characters.join('');
  return `${characters.slice(0, LABEL_SHOWN).join('').trimEnd()}…`;
}

export function placeFinding(finding: Finding, doc: FlowDocument, t: Translate): Placed {
  const node = finding.node === null ? undefined : doc.nodes.find((n) => n.id === finding.node);
  const name = node ? (node.label?.trim() ? shortened(node.label) : node.id) : (finding.node ?? '');
  const base = { node: finding.node, code: finding.code };
  // The format's finding cites a pointer (/nodes/3/label) for programs; a person reads which node's label
  // is too long, beside the label.
  const aboutLabel = /^\/nodes\/\d+\/label$/.test(finding.detail ?? '');
  if (finding.code === 'format_invalid' && aboutLabel && typeof node?.label === 'string') {
    const sentence = t('ui_finding_label_long', { node: name, count: LABEL_LIMIT, limit: LABEL_LIMIT });
    return { ...base, field: LABEL_FIELD, sentence };
  }
  const onField = ON_FIELD[finding.code];
  if (onField && node) {
    const [field, key] = onField;
    return { ...base, field, sentence: key ? t(key, { node: name }) : finding.message };
  }
  if (finding.code !== 'node_config_invalid' || !node) {
    const raw = t(finding.code);
    const only = [...raw.matchAll(/\{(\w+)\}/g)].every((m) => m[1] === 'node');
    const sentence = node && only && raw !== finding.code ? t(finding.code, { node: name }) : finding.message;
    return { ...base, field: null, sentence };
  }
  const field = fieldOf(finding.detail);
  if (field === null)
    return {
      ...base,
      field: null,
      sentence: t(node.type === 'delay' ? 'ui_finding_delay_choice' : 'ui_finding_settings', { node: name }),
    };
  const title = fieldTitle(field, t);
  const key = !(field in node.config)
    ? 'ui_finding_missing'
    : DURATIONS.has(field)
      ? 'ui_finding_duration'
      : (WHAT_TO_ENTER[field] ?? 'ui_finding_field');
  return { ...base, field, sentence: t(key, { node: name, field: title }) };
}
