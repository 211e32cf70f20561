import { describe, expect, it } from 'vitest';
import { remaining } from './Countdown';
import { byDeadline } from './InboxPage';
import { arrivals, follow, neighbour, NOTHING, step, type Selection } from './selection';
import { long, readablePath, rows } from './shown';
import type { Approval } from '../api/approvals';

function approval(id: number, deadline_at: string | null): Approval {
  return {
    id,
    run_id: id,
    flow_id: 1,
    version: 1,
    node: 'ask',
    visit: 1,
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
    started_by: null,
    quorum: 1,
    reject_rule: 'any',
    allow_self_approval: true,
    author: null,
    on_behalf_of: null,
    shown: [],
    digest: `d${id}`,
    votes: [],
  };
}

const listed = (...ids: number[]) => ids.map((id) => ({ id, title: `t${id}` }));
const showing = (id: number): Selection => ({ id, gone: null });

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

describe('the card shown', () => {
  it('shows the first request when none was shown yet', () => {
    expect(follow(NOTHING, [], listed(4, 5), new Set())).toEqual(showing(4));
    expect(follow(NOTHING, [], [], new Set())).toEqual(NOTHING);
  });

  it('keeps the card being read when an arrival comes before it in the list', () => {
    const reading = showing(5);
    // 9 has the nearer deadline and sorts first: the position of 5 changes, the card does not.
    expect(follow(reading, listed(4, 5), listed(9, 4, 5), new Set())).toBe(reading);
  });

  it('never puts another request in the place of one decided elsewhere: it says which one left', () => {
    expect(follow(showing(5), listed(4, 5, 6), listed(4, 6), new Set())).toEqual({
      id: null,
      gone: { id: 5, title: 't5' },
    });
    // And arrivals meanwhile do not replace the notice either: the person picks.
    const gone = { id: null, gone: { id: 5, title: 't5' } };
    expect(follow(gone, listed(4, 6), listed(4, 6, 7), new Set())).toBe(gone);
  });

  it('after a decision on this page, shows the request that followed it, else the one before', () => {
    expect(follow(showing(5), listed(4, 5, 6), listed(4, 6), new Set([5]))).toEqual(showing(6));
    expect(follow(showing(6), listed(4, 5, 6), listed(4, 5), new Set([6]))).toEqual(showing(5));
    expect(follow(showing(6), listed(6), [], new Set([6]))).toEqual(NOTHING);
    expect(neighbour(listed(4, 5, 6), listed(9, 4), 5)).toBe(4);
  });

  it('moves with j and k by id, stopping at either end', () => {
    const list = listed(4, 5, 6);
    expect(step(list, 5, 1)).toBe(6);
    expect(step(list, 6, 1)).toBe(6);
    expect(step(list, 4, -1)).toBe(4);
    expect(step(list, null, 1)).toBe(4);
    expect(step([], null, 1)).toBeNull();
  });

  it('counts the arrivals a refresh brought, not the requests it already knew', () => {
    expect(arrivals(new Set([4, 5]), listed(9, 4, 5, 10))).toBe(2);
    expect(arrivals(new Set([4, 5]), listed(4))).toBe(0);
  });
});

describe('the values an approval shows', () => {
  it('labels a value with the author label, else its path made readable', () => {
    expect(readablePath('trigger.invoice.due_date')).toBe('invoice › due date');
    expect(readablePath('items[0].price')).toBe('items › 0 › price');
    expect(readablePath('trigger')).toBe('trigger');
    expect(
      rows([
        { label: 'Amount', path: 'trigger.amount', value: 98000 },
        { label: null, path: 'vendor.name', value: 'ACME' },
        { label: null, path: 'api_token', value: '••••', masked: true },
      ]).map((r) => [r.label, r.value, r.masked]),
    ).toEqual([
      ['Amount', 98000, false],
      ['vendor › name', 'ACME', false],
      ['api token', '••••', true],
    ]);
  });

  it('masks only what the server masked: a field inside an object, or the whole value', () => {
    const shown = rows([
      { label: null, path: 'trigger', value: { invoice: 'B-12', api_token: '••••' }, masked: true },
      { label: 'Note', path: 'trigger.note', value: '••••' },
    ]);
    expect(shown.map((r) => [r.label, r.masked, r.masks])).toEqual([
      ['invoice', false, true],
      ['api token', true, true],
      // Not masked by the server: the text someone typed, shown as it is.
      ['Note', false, false],
    ]);
  });

  it("shows the trigger's input, an object without a label, one field a row", () => {
    const shown = rows([{ label: null, path: 'trigger', value: { invoice: 'B-12', amount: 98000 } }]);
    expect(shown.map((r) => [r.label, r.value])).toEqual([
      ['invoice', 'B-12'],
      ['amount', 98000],
    ]);
  });

  it('folds long texts and long lists, not short ones', () => {
    expect(long('x'.repeat(201))).toBe(true);
    expect(long('a\nb\nc\nd\ne')).toBe(true);
    expect(long('short')).toBe(false);
    expect(long([1, 2, 3, 4, 5, 6, 7])).toBe(true);
    expect(long({ a: 1 })).toBe(false);
    expect(long(98000)).toBe(false);
  });
});
