import { describe, expect, it } from 'vitest';
import { remaining } from './Countdown';
import { byDeadline } from './InboxPage';
import type { Approval } from '../runs/types';

function approval(id: number, deadline_at: string | null): Approval {
  return {
    id,
    run_id: id,
    flow_id: 1,
    version: 1,
    node: 'ask',
    title: `t${id}`,
    explanation: '',
    approvers: [],
    deadline_at,
    on_timeout: 'reject',
    requested_at: '2026-01-01T00:00:00Z',
    outcome: null,
    decided_by: null,
    decided_at: null,
    comment: null,
  };
}

describe('the inbox', () => {
  it('puts the nearest deadline first and approvals without one last', () => {
    const sorted = byDeadline([
      approval(1, null),
      approval(2, '2026-03-01T00:00:00Z'),
      approval(3, '2026-02-01T00:00:00Z'),
    ]);
    expect(sorted.map((a) => a.id)).toEqual([3, 2, 1]);
  });

  it('counts down whole days, hours and minutes, and says when the deadline passed', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(remaining(new Date('2026-01-02T03:04:30Z'), now)).toEqual({ days: 1, hours: 3, minutes: 4 });
    expect(remaining(new Date('2025-12-31T23:59:00Z'), now)).toBeNull();
  });
});
