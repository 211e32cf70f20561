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

/** How many approvals wait for the user (up to a page; `more` past it), for the header's badge on every
 * page: the same inbox without the values each approval shows, which a count never reads. Under the
 * inbox's key, so the event stream's refresh of the inbox refreshes it too. */
export function useInboxCount() {
  return useQuery({
    queryKey: ['inbox', 'count'],
    queryFn: async () => {
      const page = unwrap(
        await api.GET('/api/approvals', { params: { query: { limit: INBOX_PAGE, values: 'none' } } }),
      ) as unknown as { approvals: unknown[]; next: string | null };
      return { count: page.approvals.length, more: page.next !== null };
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
