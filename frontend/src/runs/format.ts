// Dates in the reader's language and time zone (their own, from /api/me), and the catalog keys of the
// values the API sends as codes. Keys are written out: the i18n guard cannot check a key built at run time.
import type { TFunction } from 'i18next';
import { formatList } from '../i18n/format';
import { formatMoment } from '../i18n/i18n';

export function when(iso: string | null | undefined): string {
  if (!iso) return '';
  return formatMoment(iso);
}

export const STATUS_KEYS: Record<string, string> = {
  running: 'run_status_running',
  waiting: 'run_status_waiting',
  stopped: 'run_status_stopped',
  succeeded: 'run_status_succeeded',
  failed: 'run_status_failed',
  cancelled: 'run_status_cancelled',
};

export const TRIGGER_KEYS: Record<string, string> = {
  manual: 'trigger_kind_manual',
  webhook: 'trigger_kind_webhook',
  schedule: 'trigger_kind_schedule',
};

// The backend's own sentences for outcomes (backend/approvals/audit.py).
export const OUTCOME_KEYS: Record<string, string> = {
  approved: 'outcome_approved',
  rejected: 'outcome_rejected',
  timed_out_approved: 'outcome_timed_out_approved',
  timed_out_rejected: 'outcome_timed_out_rejected',
  skipped: 'outcome_skipped',
  cancelled: 'outcome_cancelled',
  run_failed: 'outcome_run_failed',
  branch_cancelled: 'outcome_branch_cancelled',
};

// What happens when a deadline passes, as the approver reads it (the mail says the same).
export const TIMEOUT_KEYS: Record<string, string> = {
  approve: 'mail_approval_timeout_approve',
  reject: 'mail_approval_timeout_reject',
  skip: 'mail_approval_timeout_skip',
};

export const EFFECT_KEYS: Record<string, string> = {
  sent: 'effect_state_sent',
  failed: 'effect_state_failed',
  pending: 'effect_state_pending',
  late: 'ui_effect_late',
};

/** An approver as a reader names them: a group as "Group finance", a user by their name (never the
 * document's `group:finance`). */
export function principalName(t: TFunction, principal: string): string {
  const [kind, name] = principal.includes(':') ? principal.split(/:(.*)/s) : ['user', principal];
  return kind === 'group' ? t('ui_approvers_group', { name }) : (name ?? principal);
}

/** Who may decide, as one list of the reader's language ("Group finance and rex"). */
export function principalList(t: TFunction, principals: readonly string[]): string {
  return formatList(principals.map((principal) => principalName(t, principal)));
}
