import { describe, expect, it } from 'vitest';
import { auditQuery } from '../audit/AuditPage';
import { layout } from './RunCanvas';

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
