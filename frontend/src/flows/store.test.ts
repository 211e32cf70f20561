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

describe('a new flow', () => {
  it('is unsaved until its first save creates it, and keeps its history then', () => {
    useEditor.getState().start(v1);
    expect([useEditor.getState().fresh, useEditor.getState().flowId]).toEqual([true, null]);
    expect(unsaved(useEditor.getState())).toBe(true);
    useEditor.getState().apply(v2);
    useEditor.getState().created(12, 1);
    const now = useEditor.getState();
    expect([now.fresh, now.flowId, now.version, now.past]).toEqual([false, 12, 1, [v1]]);
    expect(unsaved(now)).toBe(false);
  });
});

describe('a rename without a version', () => {
  it('names every document held, so nothing counts as unsaved and an undo keeps the name', () => {
    useEditor.getState().load(7, 2, { ...v1, description: 'was' });
    useEditor.getState().apply(v2);
    useEditor.getState().saved(3);
    useEditor.getState().renamed('Renamed', null);
    const now = useEditor.getState();
    expect(unsaved(now)).toBe(false);
    expect([now.doc.name, now.doc.description]).toEqual(['Renamed', undefined]);
    useEditor.getState().undo();
    expect(useEditor.getState().doc.name).toBe('Renamed');
    useEditor.getState().renamed('Described', 'why');
    expect(useEditor.getState().doc.description).toBe('why');
  });

  it('leaves a new flow unsaved', () => {
    useEditor.getState().start(v1);
    useEditor.getState().renamed('Named', null);
    expect([useEditor.getState().doc.name, unsaved(useEditor.getState())]).toEqual(['Named', true]);
  });
});

describe('a new flow laid out once its layout is ready', () => {
  it('takes the layout while nothing was edited, and stays unsaved', () => {
    useEditor.getState().start(v1);
    useEditor.getState().relaid(v1, v2);
    expect([useEditor.getState().doc, unsaved(useEditor.getState())]).toEqual([v2, true]);
    useEditor.getState().apply(old);
    useEditor.getState().relaid(old, v1);
    expect(useEditor.getState().doc).toBe(old);
  });
});
