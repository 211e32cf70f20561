import { describe, expect, it } from 'vitest';
import { fieldOf, placeFinding, shortened } from './findingText';
import type { FlowDocument } from './document';

const t = (key: string, params?: Record<string, unknown>) =>
  params
    ? `${key}(${Object.entries(params)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(',')})`
    : key;

const DOC: FlowDocument = {
  format: 'flowyard.flow/1',
  name: 'f',
  nodes: [
    { id: 'start', type: 'trigger', config: { kind: 'manual' } },
    { id: 'delay1', type: 'delay', label: 'Cool down', config: { duration: 'two' } },
    { id: 'delay2', type: 'delay', config: {} },
  ],
  wires: [],
};

function finding(node: string, detail: string) {
  const message = `The settings of node ${node} are not valid at ${detail}: must match the pattern ^P(?!$)`;
  return { code: 'node_config_invalid', node, wire: null, message, detail };
}

describe('findings as people read them', () => {
  it('finds the field a pointer names', () => {
    expect(fieldOf('/nodes/1/config/duration')).toBe('duration');
    expect(fieldOf('/nodes/3/config/values/a-b')).toBe('values');
    expect(fieldOf('/nodes/3/config')).toBeNull();
    expect(fieldOf('/wires/0/to')).toBeNull();
  });

  it('names the node by its label and the field by its title, and says what to enter', () => {
    const placed = placeFinding(finding('delay1', '/nodes/1/config/duration'), DOC, t);
    expect(placed.field).toBe('duration');
    expect(placed.sentence).toBe('ui_finding_duration(node=Cool down,field=ui_field_duration)');
  });

  it("says which node's label is too long, beside the label, without the format's pointer", () => {
    const long = 'Ask the head of purchasing whether this order may go ahead '.repeat(4);
    const doc = { ...DOC, nodes: [...DOC.nodes, { id: 'ask', type: 'approval', label: long, config: {} }] };
    const message =
      'The flow does not match its format at /nodes/3/label: The value must have at most 200 characters.';
    const said = placeFinding(
      { code: 'format_invalid', node: 'ask', wire: null, message, detail: '/nodes/3/label' },
      doc,
      t,
    );
    expect(said.field).toBe('label');
    expect(said.sentence).toBe(
      'ui_finding_label_long(node=Ask the head of purchasing whether this…,count=200,limit=200)',
    );
    const other = { code: 'format_invalid', node: 'ask', wire: null, message, detail: '/nodes/3/id' };
    expect(placeFinding(other, doc, t)).toMatchObject({ field: null, sentence: message });
  });

  it('shortens a label by whole characters, never an id', () => {
    expect(shortened('😀'.repeat(50))).toBe(`${'😀'.repeat(40)}…`);
    expect(shortened('  Sign off  ')).toBe('Sign off');
    const id = 'a_node_id_that_is_longer_than_forty_characters_as_ids_may_be';
    const doc = { ...DOC, nodes: [...DOC.nodes, { id, type: 'delay', config: { duration: 'two' } }] };
    const said = placeFinding(finding(id, '/nodes/3/config/duration'), doc, t);
    expect(said.sentence).toBe(
      'ui_finding_duration(node=a_node_id_that_is_longer_than_forty_characters_as_ids_may_be,field=ui_field_duration)',
    );
  });

  it('says a missing field is empty, and a delay without either way to choose one', () => {
    const missing = placeFinding(finding('delay2', '/nodes/2/config/duration'), DOC, t);
    expect(missing.sentence).toBe('ui_finding_missing(node=delay2,field=ui_field_duration)');
    const neither = placeFinding(finding('delay2', '/nodes/2/config'), DOC, t);
    expect(neither).toMatchObject({ field: null, sentence: 'ui_finding_delay_choice(node=delay2)' });
  });

  it("keeps the server's sentence for other codes, with the label where it names only the node", () => {
    const other = {
      code: 'unreachable',
      node: 'delay1',
      wire: null,
      message: 'Node delay1 ...',
      detail: null,
    };
    const says = (key: string, params?: Record<string, unknown>) =>
      key === 'unreachable' && !params ? 'No wire leads to {node}.' : t(key, params);
    expect(placeFinding(other, DOC, says).sentence).toBe('unreachable(node=Cool down)');
    const counted = (key: string) => (key === 'unreachable' ? '{node} waits for {count}.' : key);
    expect(placeFinding(other, DOC, counted).sentence).toBe('Node delay1 ...');
  });

  it("puts an approval rule's finding on the field it concerns, without the ISO duration", () => {
    const late = {
      code: 'approval_reminder_after_deadline',
      node: 'delay1',
      wire: null,
      message: 'The approval delay1 reminds after P2D, which is not before its deadline.',
      detail: null,
    };
    expect(placeFinding(late, DOC, t)).toMatchObject({
      field: 'remind_after',
      sentence: 'ui_finding_reminder_late(node=Cool down)',
    });
  });
});
