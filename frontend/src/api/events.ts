// One EventSource per tab on the runs' change stream (GET /api/runs/stream): each event invalidates the
// cached queries that show runs, the inbox and the run in question, so pages refetch what changed. No
// page polls. The browser's EventSource reconnects by itself; `resync` (events missed) refetches all.
// `ready` comes once the stream listens, at every (re)connection: what the pages read before it may miss a
// change committed before it (a run that parked while the stream connected stayed "Running" on the runs
// page until its next change, days later for an approval), so the runs' queries are read again then.
import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { approvalKeys } from './approvals';
import { runKeys } from './runs';

const THROTTLE_MS = 300;

function invalidator(queries: QueryClient): (run: number | null) => void {
  let pending: number | null = null;
  const runs = new Set<number>();
  return (run) => {
    if (run !== null) runs.add(run);
    if (pending !== null) return;
    // A burst of events (a loop of a hundred passes) becomes one refetch of each list.
    pending = window.setTimeout(() => {
      pending = null;
      void queries.invalidateQueries({ queryKey: runKeys.lists });
      void queries.invalidateQueries({ queryKey: approvalKeys.inbox });
      for (const id of runs) void queries.invalidateQueries({ queryKey: runKeys.one(id) });
      runs.clear();
    }, THROTTLE_MS);
  };
}

/** Read the queries under `queryKey` anew. A read still under way may have begun before the stream listened;
 * invalidating alone would wait for it (a query with no data yet is never cancelled by a refetch). */
async function readAgain(queries: QueryClient, queryKey: readonly unknown[]): Promise<void> {
  await queries.cancelQueries({ queryKey });
  await queries.invalidateQueries({ queryKey });
}

export function useLiveRuns(): void {
  const queries = useQueryClient();
  useEffect(() => {
    const source = new EventSource('/api/runs/stream', { withCredentials: true });
    const changed = invalidator(queries);
    source.addEventListener('run', (event) => {
      const data = JSON.parse((event as MessageEvent<string>).data) as { run?: number };
      changed(typeof data.run === 'number' ? data.run : null);
    });
    source.addEventListener('ready', () => {
      for (const queryKey of [runKeys.lists, approvalKeys.inbox, runKeys.every])
        void readAgain(queries, queryKey);
    });
    source.addEventListener('resync', () => {
      void queries.invalidateQueries();
    });
    return () => source.close();
  }, [queries]);
}
