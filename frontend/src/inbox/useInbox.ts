// The approvals the user may decide now (named, or in a named group, with the decide right), one
// cached query for the page and the header's badge; refreshed by the runs' event stream. And the one call
// that decides.
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { Approval, DecisionBody } from '../runs/types';

export const INBOX_PAGE = 100;

export function useInbox() {
  return useQuery({
    queryKey: ['inbox'],
    queryFn: async () =>
      unwrap(await api.GET('/api/approvals', { params: { query: { limit: INBOX_PAGE } } })) as unknown as {
        approvals: Approval[];
        next: string | null;
      },
  });
}

/** Decides the approval the body names (`approval`, the id in the path too), as its digest was seen. */
export async function postDecision(body: DecisionBody): Promise<unknown> {
  return unwrap(
    await api.POST('/api/approvals/{approval_id}/decision', {
      params: { path: { approval_id: body.approval } },
      body,
    }),
  );
}
