import { describe, expect, it } from 'vitest';
import { formValidator, matches } from './formValidator';

describe('the form validator without eval', () => {
  it('tells which const of a choice a value is', () => {
    expect(matches({ const: 'eq', title: 'equals' }, 'eq')).toBe(true);
    expect(matches({ const: 'eq', title: 'equals' }, 'ne')).toBe(false);
    expect(matches({ type: 'string', enum: ['a', 'b'] }, 'b')).toBe(true);
    expect(matches({ type: 'integer' }, 1.5)).toBe(false);
  });

  it('reads required properties and their kinds', () => {
    const schedule = { required: ['kind'], properties: { kind: { const: 'schedule' } } };
    expect(matches(schedule, { kind: 'schedule' })).toBe(true);
    expect(matches(schedule, { kind: 'manual' })).toBe(false);
    expect(matches(schedule, {})).toBe(false);
  });

  it('never guesses: a keyword it does not read answers no', () => {
    expect(matches({ type: 'string', pattern: '^P' }, 'PT2H')).toBe(false);
    expect(matches({ oneOf: [{ const: 1 }] }, 1)).toBe(false);
  });

  it('reports no errors of its own: the server findings are the one source', () => {
    expect(formValidator.validateFormData({ x: 1 }, { type: 'string' }).errors).toEqual([]);
  });
});
