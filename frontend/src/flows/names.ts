// A flow's name and description changed without a new version (PATCH /api/flows/{id}): versions are for
// what runs. The editor holding the flow takes the new ones into every document it holds.
import { patchFlow } from '../api/flows';
import { useEditor } from './store';

export async function renameFlow(
  flowId: number,
  change: { name?: string; description?: string | null },
): Promise<void> {
  const now = await patchFlow(flowId, change);
  const editor = useEditor.getState();
  if (editor.flowId === flowId) editor.renamed(now.name, now.description ?? null);
}
