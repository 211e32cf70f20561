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
});
