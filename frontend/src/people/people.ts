// What the People page's parts share: the catalog keys of rights and trail changes (written out: the
// i18n guard cannot check a key built at run time). The shapes and the calls are src/api/people.ts.

/** The rights a flow grant can name; `decide` is never implied by another, `admin` included. */
export const RIGHTS = ['edit', 'run', 'decide', 'audit', 'admin', 'send_events'] as const;

export const RIGHT_KEYS: Record<string, string> = {
  edit: 'ui_people_right_edit',
  run: 'ui_people_right_run',
  decide: 'ui_people_right_decide',
  audit: 'ui_people_right_audit',
  admin: 'ui_people_right_admin',
  send_events: 'ui_people_right_send_events',
  use_server: 'ui_people_right_use_server',
};

export const CHANGE_KEYS: Record<string, string> = {
  user_added: 'ui_people_change_user_added',
  user_removed: 'ui_people_change_user_removed',
  granted: 'ui_people_change_granted',
  revoked: 'ui_people_change_revoked',
  token_created: 'ui_people_change_token_created',
  token_revoked: 'ui_people_change_token_revoked',
  delegated: 'ui_people_change_delegated',
  delegation_ended: 'ui_people_change_delegation_ended',
};

/** A policy set, as a sentence naming the policy and its new value: `self_approval` is the only policy. */
export const POLICY_SET_KEYS: Record<string, string> = {
  never: 'ui_people_change_policy_self_approval_never',
  per_node: 'ui_people_change_policy_self_approval_per_node',
};

/** A grant as the API writes it (`decide`, `decide:12`), split into its right and flow. */
export function splitGrant(text: string): { right: string; flow: number | null } {
  const [right = text, place] = text.split(':', 2);
  return { right, flow: place && /^[0-9]+$/.test(place) ? Number(place) : null };
}

/** A right as a reader says it: its name, and the flow's name when it holds on one flow only. */
export function rightLabel(
  t: (key: string, options?: Record<string, unknown>) => string,
  text: string,
  flowNames: Map<number, string>,
): string {
  const { right, flow } = splitGrant(text);
  const name = t(RIGHT_KEYS[right] ?? right);
  if (flow === null) return t('ui_people_right_everywhere', { right: name });
  return t('ui_people_right_on_flow', { right: name, flow: flowNames.get(flow) ?? `#${flow}` });
}
