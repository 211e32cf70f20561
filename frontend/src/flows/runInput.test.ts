import { describe, expect, it } from 'vitest';
import { firstInput, inputKey, lastInput, rememberInput, type Store } from './runInput';

function memory(): Store & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
  };
}

describe('the Run dialog input', () => {
  it('opens with the walk sample, else the last input of this flow, else an empty object', () => {
    expect(firstInput('{"a": 1}', '{"b": 2}')).toBe('{"a": 1}');
    expect(firstInput('  ', '{"b": 2}')).toBe('{"b": 2}');
    expect(firstInput('', null)).toBe('{}');
  });

  it('keeps the last input per flow', () => {
    const store = memory();
    rememberInput(store, 7, '{"invoice": "A-7"}');
    expect([lastInput(store, 7), lastInput(store, 8)]).toEqual(['{"invoice": "A-7"}', null]);
    expect([...store.items.keys()]).toEqual([inputKey(7)]);
  });

  it('goes on when the storage refuses', () => {
    const refusing: Store = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
    };
    expect(() => rememberInput(refusing, 7, '{}')).not.toThrow();
    expect(lastInput(refusing, 7)).toBeNull();
  });
});
