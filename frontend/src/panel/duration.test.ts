import { describe, expect, it } from 'vitest';
import { durationWords, formatDuration, parseDuration } from './duration';

describe('durations in words and in ISO 8601', () => {
  it('writes a number and a unit as the flow format stores it', () => {
    expect(formatDuration('2', 'hours')).toBe('PT2H');
    expect(formatDuration('30', 'minutes')).toBe('PT30M');
    expect(formatDuration('5', 'seconds')).toBe('PT5S');
    expect(formatDuration('3', 'days')).toBe('P3D');
    expect(formatDuration('1', 'weeks')).toBe('P1W');
    expect(formatDuration(' 07 ', 'days')).toBe('P7D');
  });

  it('leaves an empty amount out, and keeps text that is no number for the server to name', () => {
    expect(formatDuration('', 'hours')).toBeNull();
    expect(formatDuration('two', 'hours')).toBe('two');
  });

  it('reads back what it wrote, and nothing it cannot edit as one number', () => {
    for (const unit of ['seconds', 'minutes', 'hours', 'days', 'weeks'] as const)
      expect(parseDuration(formatDuration('12', unit) as string)).toEqual({ amount: '12', unit });
    expect(parseDuration('P1DT2H')).toBeNull();
    expect(parseDuration('PT')).toBeNull();
    expect(parseDuration('2 hours')).toBeNull();
  });

  it('says any duration in the reader language', () => {
    expect(durationWords('P1DT2H', 'en')).toBe('1 day and 2 hours');
    expect(durationWords('PT2H', 'de')).toBe('2 Stunden');
    expect(durationWords('PT1M', 'ja')).toBe('1 分');
    expect(durationWords('soon', 'en')).toBeNull();
  });
});
