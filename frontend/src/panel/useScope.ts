// What a node's templates may read: the names in scope at the node in the editor's document, with the
// trigger's fields from the walk panel's sample input when it is JSON (one hook for every field that
// offers names: template completion, the approval's shown values).
import { useMemo } from 'react';
import { useEditor } from '../flows/store';
import { useWalk } from '../walk/store';
import { parseInput } from '../walk/walk';
import { scopeAt, type ScopeEntry } from './scope';

export function useScope(nodeId: string): ScopeEntry[] {
  const doc = useEditor((s) => s.doc);
  const sample = useWalk((s) => s.sample);
  return useMemo(() => {
    const parsed = parseInput(sample);
    return scopeAt(doc, nodeId, 'input' in parsed ? parsed.input : null);
  }, [doc, nodeId, sample]);
}
