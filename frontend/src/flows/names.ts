// A flow's name and description changed without a new version (PATCH /api/flows/{id}): versions are for
// what runs. The editor holding the flow takes the new ones into every document it holds.
import { api, unwrap } from '../api/client';
import { useEditor } from './store';

export async function renameFlow(
  flowId: number,
  change: { name?: string; description?: string | null },
): Promise<void> {
  const now = unwrap(
    await api.PATCH('/api/flows/{flow_id}', { params: { path: { flow_id: flowId } }, body: change }),
  );
  const editor = useEditor.getState();
  if (editor.flowId === flowId) editor.renamed(now.name, now.description ?? null);
}
