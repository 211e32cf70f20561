import { beforeEach, describe, expect, it } from 'vitest';
import type { FlowDocument } from './document';
import { unsaved, useEditor } from './store';

const v1: FlowDocument = { format: 'flowyard.flow/1', name: 'one', nodes: [], wires: [] };
const v2: FlowDocument = { ...v1, name: 'two' };
const old: FlowDocument = { ...v1, name: 'old' };

describe('an old version read while editing', () => {
  beforeEach(() => useEditor.getState().load(7, 2, v2));

  it('puts the edits aside, with their history, and gives them back', () => {
    const edited = { ...v2, name: 'edited' };
    useEditor.getState().apply(edited);
    useEditor.getState().view(1, old);
    expect(useEditor.getState().doc).toBe(old);
    expect(unsaved(useEditor.getState())).toBe(true);
    useEditor.getState().view(null, useEditor.getState().savedDoc);
    const back = useEditor.getState();
    expect([back.viewing, back.doc, back.past, back.draft]).toEqual([null, edited, [v2], null]);
  });

  it('takes a newer version beneath it only when nothing is unsaved', () => {
    useEditor.getState().view(1, old);
    useEditor.getState().beneath(3, v1);
    useEditor.getState().view(null, useEditor.getState().savedDoc);
    expect([useEditor.getState().version, useEditor.getState().doc]).toEqual([3, v1]);

    useEditor.getState().apply({ ...v1, name: 'edited' });
    useEditor.getState().view(1, old);
    useEditor.getState().beneath(4, v2);
    expect(useEditor.getState().version).toBe(3);
  });

  it('leaves nothing unsaved when the newer version taken beneath is what "Back" shows', () => {
    const v3 = { ...v1, name: 'three' };
    const v5 = { ...v1, name: 'five' };
    const v6 = { ...v1, name: 'six' };
    useEditor.getState().load(7, 5, v5);
    useEditor.getState().view(2, v2);
    useEditor.getState().beneath(6, v6);
    expect(unsaved(useEditor.getState())).toBe(false);

    useEditor.getState().view(3, v3);
    useEditor.getState().view(null, useEditor.getState().savedDoc);
    const back = useEditor.getState();
    expect([back.viewing, back.version, back.doc, back.savedDoc, back.past]).toEqual([null, 6, v6, v6, []]);
    expect(back.doc).toBe(v6);
    expect(unsaved(back)).toBe(false);
  });
});
