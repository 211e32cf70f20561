// A new flow's first Save: the flow is created (version 1) and the page moves to its address, carrying
// `Created` so that the toolbar there says so and the leave guard lets the move pass.
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { createFlow, flowKeys } from '../api/flows';
import { useEditor } from './store';

/** What a new flow's first save hands to the page at its new address (router state). */
export interface Created {
  created: number;
}

/** Creates the editor's new flow from its document; throws the API's refusal. `onCreated` hears the new
 * id before the page moves, so the editor holds it as loaded, history and all. */
export function useCreate(onCreated: (flowId: number) => void): () => Promise<void> {
  const queries = useQueryClient();
  const navigate = useNavigate();
  return async () => {
    const doc = useEditor.getState().doc;
    const saved = await createFlow(doc);
    useEditor.getState().created(saved.id, saved.version);
    onCreated(saved.id);
    await queries.invalidateQueries({ queryKey: flowKeys.list });
    const state: Created = { created: saved.version };
    await navigate(`/flows/${saved.id}`, { replace: true, state });
  };
}
