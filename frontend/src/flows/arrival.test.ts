import { describe, expect, it } from 'vitest';
import { arrival, newerVersion, type Editing } from './arrival';

const editing: Editing = { opened: 7, version: 3, dirty: false, viewing: false };

describe('what a flow query answer does to the editor', () => {
  it('loads the flow when this page opens it, or opens another one, whatever the store held', () => {
    expect(arrival({ ...editing, opened: null, dirty: true }, 7, 3)).toBe('load');
    expect(arrival({ ...editing, dirty: true }, 8, 1)).toBe('load');
    expect(arrival({ ...editing, version: null }, 7, 1)).toBe('load');
  });

  it('ignores an answer no newer than the version being edited (a refetch, or after its own save)', () => {
    expect(arrival(editing, 7, 3)).toBe('ignore');
    expect(arrival({ ...editing, dirty: true }, 7, 3)).toBe('ignore');
    expect(arrival({ ...editing, version: 5 }, 7, 4)).toBe('ignore');
  });

  it('keeps unsaved edits when a newer version arrives', () => {
    expect(arrival({ ...editing, dirty: true }, 7, 4)).toBe('keep');
  });

  it('loads a newer version when there is nothing to lose', () => {
    expect(arrival(editing, 7, 4)).toBe('load');
  });

  it('puts a newer version beneath an old one being read, unless edits were put aside for it', () => {
    expect(arrival({ ...editing, viewing: true }, 7, 4)).toBe('beneath');
    expect(arrival({ ...editing, viewing: true, dirty: true }, 7, 4)).toBe('keep');
    expect(arrival({ ...editing, viewing: true }, 7, 3)).toBe('ignore');
  });
});

describe('the notice of a newer version', () => {
  it('names the version the query has and the editor did not load', () => {
    expect(newerVersion({ ...editing, dirty: true }, 7, 4)).toBe(4);
    expect(newerVersion(editing, 7, 3)).toBeNull();
    expect(newerVersion({ ...editing, version: 5 }, 7, 4)).toBeNull();
  });

  it('says nothing before the flow is open, for another flow, or while an old version is read', () => {
    expect(newerVersion(editing, 7, undefined)).toBeNull();
    expect(newerVersion({ ...editing, opened: null }, 7, 4)).toBeNull();
    expect(newerVersion(editing, 8, 4)).toBeNull();
    expect(newerVersion({ ...editing, viewing: true }, 7, 4)).toBeNull();
    expect(newerVersion({ ...editing, version: null }, 7, 4)).toBeNull();
  });
});
