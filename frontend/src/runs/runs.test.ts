import { describe, expect, it } from 'vitest';
import { auditQuery } from '../audit/AuditPage';
import { layout } from './RunCanvas';
import { allows } from './rights';

describe('the run canvas', () => {
  it('lays the flow out left to right, each node once', () => {
    const at = layout({
      nodes: [
        { id: 'start', type: 'trigger' },
        { id: 'ask', type: 'approval' },
        { id: 'pay', type: 'http' },
      ],
      wires: [
        { from: 'start', to: 'ask' },
        { from: 'ask', to: 'pay', port: 'approve' },
      ],
    });
    expect([...at.keys()]).toEqual(['start', 'ask', 'pay']);
    const x = (id: string) => at.get(id)?.x ?? Number.NaN;
    expect(x('start')).toBeLessThan(x('ask'));
    expect(x('ask')).toBeLessThan(x('pay'));
  });
  it('lays it out top to bottom when asked (a phone)', () => {
    const at = layout(
      {
        nodes: [
          { id: 'start', type: 'trigger' },
          { id: 'ask', type: 'approval' },
        ],
        wires: [{ from: 'start', to: 'ask' }],
      },
      'TB',
    );
    expect(at.get('start')?.y ?? Number.NaN).toBeLessThan(at.get('ask')?.y ?? Number.NaN);
    expect(at.get('start')?.x).toBe(at.get('ask')?.x);
  });
});

describe('the audit filter', () => {
  it('sends only what is set, and times with their offset', () => {
    const query = auditQuery({
      flow: '3',
      decider: '',
      outcome: 'approved',
      since: '2026-01-01T10:00',
      until: '',
      text: 'A-7',
    });
    expect(Object.keys(query).sort()).toEqual(['flow', 'outcome', 'since', 'text']);
    expect(query.since).toMatch(/Z$/);
  });
});

describe('the rights a page asks for', () => {
  const grants = [
    { right: 'decide', flow: null },
    { right: 'edit', flow: 7 },
    { right: 'audit', flow: 3 },
  ];
  it('reads a grant everywhere as a grant on every flow', () => {
    expect(allows(grants, 'decide')).toBe(true);
    expect(allows(grants, 'decide', 12)).toBe(true);
  });
  it('reads a grant on one flow as that flow only: not everywhere, not another', () => {
    expect(allows(grants, 'edit', 7)).toBe(true);
    expect(allows(grants, 'edit', 8)).toBe(false);
    expect(allows(grants, 'edit')).toBe(false);
  });
  it('asks for some flow when a page opens to a right held anywhere', () => {
    expect(allows(grants, 'audit', 'some')).toBe(true);
    expect(allows(grants, 'admin', 'some')).toBe(false);
    expect(allows([], 'decide', 'some')).toBe(false);
  });
});
