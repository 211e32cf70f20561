import { describe, expect, it } from 'vitest';
import type { ScopeEntry } from './scope';
import { choiceName, moved, nextValue, showConfig, showRows } from './show';

const scope: ScopeEntry[] = [
  { path: 'trigger', kind: 'trigger', from: 'start' },
  { path: 'trigger.invoice', kind: 'trigger', from: 'start' },
  { path: 'trigger.due_date', kind: 'trigger', from: 'start' },
  { path: 'total', kind: 'set', from: 'mark' },
  { path: 'line', kind: 'loop', from: 'each' },
  { path: 'check', kind: 'output', from: 'check' },
  { path: 'check.decided_by', kind: 'output', from: 'check' },
  { path: 'check.extra_field', kind: 'output', from: 'check' },
];

describe('the show list as rows', () => {
  it('reads labels and values, and nothing from what is not a list of items', () => {
    expect(showRows([{ label: 'Amount', value: 'trigger.amount' }, { value: 'trigger' }])).toEqual([
      { label: 'Amount', value: 'trigger.amount' },
      { label: '', value: 'trigger' },
    ]);
    expect(showRows(undefined)).toEqual([]);
    expect(showRows('trigger')).toEqual([]);
    expect(showRows([null, { label: 'x' }, { value: 'a' }])).toEqual([{ label: '', value: 'a' }]);
  });

  it('writes an empty label as no label, and no rows as no show at all', () => {
    expect(
      showConfig([
        { label: '', value: 'trigger.invoice' },
        { label: 'Due', value: 'x.y' },
      ]),
    ).toEqual([{ value: 'trigger.invoice' }, { label: 'Due', value: 'x.y' }]);
    expect(showConfig([])).toBeUndefined();
  });
});

describe('a new row', () => {
  it('starts with the first field not shown yet', () => {
    expect(nextValue([], scope)).toBe('trigger.invoice');
    expect(nextValue([{ label: '', value: 'trigger.invoice' }], scope)).toBe('trigger.due_date');
  });

  it('takes a whole value when no field is free, and the input when nothing is in scope', () => {
    const shown = scope.filter((e) => e.path.includes('.')).map((e) => ({ label: '', value: e.path }));
    expect(nextValue(shown, scope)).toBe('trigger');
    expect(nextValue([], [])).toBe('trigger');
  });
});

describe('moving a row', () => {
  it('swaps it with its neighbour and stays at either end', () => {
    expect(moved(['a', 'b', 'c'], 1, -1)).toEqual(['b', 'a', 'c']);
    expect(moved(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'c', 'b']);
    expect(moved(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moved(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });
});

describe('the name of a choice', () => {
  const t = (key: string, params: Record<string, string> = {}) =>
    key + (Object.keys(params).length ? JSON.stringify(params) : '');

  it('names every kind of variable by a catalog sentence, never by its path', () => {
    expect(scope.map((entry) => choiceName(entry, t))).toEqual([
      'ui_show_choice_input',
      'ui_show_choice_input_field{"key":"invoice"}',
      'ui_show_choice_input_field{"key":"due date"}',
      'ui_show_choice_variable{"name":"total"}',
      'ui_show_choice_loop{"name":"line"}',
      'ui_show_choice_output{"node":"check"}',
      'ui_show_choice_output_field{"node":"check","key":"ui_show_field_decided_by"}',
      'ui_show_choice_output_field{"node":"check","key":"extra field"}',
    ]);
  });
});
