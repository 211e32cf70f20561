// The shapes the run, inbox and audit pages read. The generated schema types these answers loosely
// (objects and arrays); these name the fields the backend writes (backend/api/run_details.py).
import type { operations } from '../api/schema';

export interface Run {
  id: number;
  flow_id: number;
  version: number;
  status: string;
  trigger: string;
  error: string | null;
  error_message: string | null; // the error code's sentence in the reader's language (set with `error`)
  started_by?: string | null;
  created_at: string;
  ended_at?: string | null;
  input?: unknown;
  /** The run's latest decided approval (approved, rejected, or settled by its deadline), if any. */
  decision?: RunDecision | null;
}

export interface RunDecision {
  approval: number;
  node: string;
  title: string;
  outcome: string;
  decided_by: string | null;
  decided_at: string;
}

export interface JournalLine {
  seq: number;
  at: string;
  code: string;
  node: string | null;
  visit: number | null;
  data: Record<string, unknown>;
  message: string;
}

export interface Wait {
  kind: string;
  node: string | null;
  visit: number | null;
  status: string;
  attempts: number;
  wake_at: string | null;
  last_error: string | null;
  last_error_message: string | null; // set with `last_error`
  /** The branches' failed actions the wait will send again (a parallel open), each with its next try. */
  retries?: WaitRetry[];
}

export interface WaitRetry {
  node: string;
  visit: number;
  due: string;
  attempt: number; // the tries made so far
}

export interface RunApproval {
  id: number;
  visit: number;
  node: string;
  title: string;
  approvers: string[];
  deadline_at: string | null;
  on_timeout: string | null;
  requested_at: string | null;
  outcome: string | null;
  decided_by: string | null;
  decided_at: string | null;
  comment: string | null;
}

export interface Effect {
  visit: number;
  node: string;
  type: string;
  key: string;
  attempts: number;
  // late: an answer came after its attempt was given up (kept aside; the outcome that stands is status/code)
  state: 'sent' | 'failed' | 'pending' | 'late';
  status: number | null;
  code: string | null;
  code_message?: string | null;
  late_status?: number | null;
  late_at?: string | null;
}

export interface FlowNode {
  id: string;
  type: string;
  config?: Record<string, unknown>;
  label?: string;
  position?: { x: number; y: number };
}

export interface FlowDocument {
  nodes: FlowNode[];
  wires: { from: string; to: string; port?: string }[];
}

export interface RunPageData {
  run: Run;
  journal: JournalLine[];
  /** The last line's number when more lines follow: the next page's `after`. */
  next: number | null;
  wait: Wait | null;
  flow: { name: string; document: FlowDocument } | null;
  visits: Record<string, number>;
  approvals: RunApproval[];
  effects: Effect[];
  variables: unknown;
  max_attempts: number;
}

export interface Approval {
  id: number;
  run_id: number;
  flow_id: number;
  version: number;
  node: string;
  title: string;
  explanation: string;
  approvers: string[];
  deadline_at: string | null;
  on_timeout: string | null;
  requested_at: string;
  outcome: string | null;
  decided_by: string | null;
  decided_at: string | null;
  comment: string | null;
  started_by?: string | null;
  quorum?: number;
  on_behalf_of?: string | null;
  votes?: Vote[];
  /** What the approver is asked about, rendered when the approval was asked (contract of issue 31). */
  shown: ShownItem[];
  /** SHA-256 of the approval's id, run, title, explanation and shown: sent back with a decision as `seen`. */
  digest: string;
}

/** One value an approval shows: the author's label (or none), the template path, the value then. A value
 * under a credential's name is replaced by a mask and `masked` is true. */
export interface ShownItem {
  label: string | null;
  path: string;
  value: unknown;
  masked?: boolean;
}

/** The decision a page sends: the API's body (generated), with the two fields a program may leave out
 * and a page never does: the approval it shows (`approval`) and that approval's `digest` (`seen`). */
type DecideBody = operations['decide']['requestBody']['content']['application/json'];
export type DecisionBody = DecideBody & Required<Pick<DecideBody, 'approval' | 'seen'>>;

export interface Vote {
  id: number;
  voter: string;
  on_behalf_of: string | null;
  vote: 'approve' | 'reject';
  comment: string | null;
  cast_at: string;
}
