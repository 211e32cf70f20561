import { describe, expect, it } from 'vitest';
import { auditQuery } from '../audit/AuditPage';
import { runPlaces } from './runLayout';
import { allows } from './rights';
import { principalList, principalName } from './format';

describe('the run canvas', () => {
  const y = (doc: ReturnType<typeof runPlaces>, id: string) =>
    doc.nodes.find((n) => n.id === id)?.position?.y ?? Number.NaN;
  it('lays a flow without positions out top to bottom, as the editor does', () => {
    const doc = runPlaces({
      nodes: [
        { id: 'start', type: 'trigger' },
        { id: 'ask', type: 'approval' },
        { id: 'pay', type: 'http' },
        { id: 'no', type: 'log' },
      ],
      wires: [
        { from: 'start', to: 'ask' },
        { from: 'ask', to: 'pay', port: 'approve' },
        { from: 'ask', to: 'no', port: 'reject' },
      ],
    });
    expect(doc.nodes.map((n) => n.id)).toEqual(['start', 'ask', 'pay', 'no']);
    expect(y(doc, 'start')).toBeLessThan(y(doc, 'ask'));
    expect(y(doc, 'ask')).toBeLessThan(y(doc, 'pay'));
    const x = (id: string) => doc.nodes.find((n) => n.id === id)?.position?.x ?? Number.NaN;
    expect(x('pay')).toBeLessThan(x('no')); // approve left of reject, as on the editor's canvas
  });
  it('keeps the positions the author saved', () => {
    const doc = runPlaces({
      nodes: [
        { id: 'start', type: 'trigger', position: { x: 500, y: 0 } },
        { id: 'ask', type: 'approval', label: 'Finance approves', position: { x: 0, y: 300 } },
      ],
      wires: [{ from: 'start', to: 'ask' }],
    });
    expect(doc.nodes.map((n) => n.position)).toEqual([
      { x: 500, y: 0 },
      { x: 0, y: 300 },
    ]);
    expect(doc.nodes[1]?.label).toBe('Finance approves');
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

describe('approvers in words', () => {
  it('names a group by the catalog and a user by name, listed in the reader’s language', async () => {
    const { default: i18next } = await import('../i18n/i18n');
    i18next.addResourceBundle('de', 'translation', { ui_approvers_group: 'Gruppe {name}' });
    await i18next.changeLanguage('de');
    const t = i18next.getFixedT('de');
    expect(principalName(t, 'group:finance')).toBe('Gruppe finance');
    expect(principalName(t, 'user:anna')).toBe('anna');
    expect(principalList(t, ['group:finance', 'user:anna', 'user:ben'])).toBe('Gruppe finance, anna und ben');
    await i18next.changeLanguage('en');
  });
});
