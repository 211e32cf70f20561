// The open flow's query, shared by the editor and the boot (main.tsx), which starts it together with the
// editor's code when the page is opened at a flow's address, instead of after both have loaded.
import { api, unwrap } from '../api/client';

export function flowQuery(flowId: number) {
  return {
    queryKey: ['flow', flowId] as const,
    queryFn: async () =>
      unwrap(await api.GET('/api/flows/{flow_id}', { params: { path: { flow_id: flowId } } })),
    refetchOnWindowFocus: false,
    // Fetched at boot a moment before the editor mounts: not asked again then (a save refetches it).
    staleTime: 5_000,
  };
}
