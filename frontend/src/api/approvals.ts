// Approvals: the inbox (the approvals the user may decide now, one cached query for the page and the
// header's badge, refreshed by the runs' event stream), one approval, and the one call that decides.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError, unwrap } from './client';
import type { operations } from './schema';

/** One approval, decided or not, with what it shows and the digest a decision sends back. */
export type Approval = operations['get_approval']['responses'][200]['content']['application/json'];
/** One value an approval shows: the author's label (or none), the template path, the value then. A value
 * under a credential's name is replaced by a mask and `masked` is true. */
export type ShownItem = Approval['shown'][number];
export type Vote = Approval['votes'][number];
type InboxItem = operations['inbox']['responses'][200]['content']['application/json']['approvals'][number];

/** The decision a page sends: the API's body, with the two fields a program may leave out and a page
 * never does: the approval it shows (`approval`) and that approval's `digest` (`seen`). */
type DecideBody = operations['decide']['requestBody']['content']['application/json'];
export type DecisionBody = DecideBody & Required<Pick<DecideBody, 'approval' | 'seen'>>;

export const INBOX_PAGE = 100;

export const approvalKeys = {
  /** The inbox and everything under it (the badge's count). */
  inbox: ['inbox'] as const,
  count: ['inbox', 'count'] as const,
  one: (approvalId: number) => ['approval', approvalId] as const,
};

/** An inbox item asked with its values carries them and their digest (only `values: 'none'` leaves both out). */
function withValues(item: InboxItem): Approval {
  const { shown, digest } = item;
  if (shown === undefined || digest === undefined) throw new ApiError(200, 'internal_error', '', item);
  return { ...item, shown, digest };
}

export const inboxQuery = queryOptions({
  queryKey: approvalKeys.inbox,
  queryFn: async () => {
    const page = unwrap(await api.GET('/api/approvals', { params: { query: { limit: INBOX_PAGE } } }));
    return { approvals: page.approvals.map(withValues), next: page.next };
  },
});

/** How many approvals wait for the user (up to a page; `more` past it), for the header's badge on every
 * page: the same inbox without the values each approval shows, which a count never reads. Under the
 * inbox's key, so the event stream's refresh of the inbox refreshes it too. */
export const inboxCountQuery = queryOptions({
  queryKey: approvalKeys.count,
  queryFn: async () => {
    const page = unwrap(
      await api.GET('/api/approvals', { params: { query: { limit: INBOX_PAGE, values: 'none' } } }),
    );
    return { count: page.approvals.length, more: page.next !== null };
  },
});

export function useInbox() {
  return useQuery(inboxQuery);
}

export function useInboxCount() {
  return useQuery(inboxCountQuery);
}

export function approvalQuery(approvalId: number) {
  return queryOptions({
    queryKey: approvalKeys.one(approvalId),
    queryFn: async () =>
      unwrap(
        await api.GET('/api/approvals/{approval_id}', { params: { path: { approval_id: approvalId } } }),
      ),
  });
}

/** Decides the approval the body names (`approval`, the id in the path too), as its digest was seen; the
 * answer is the approval as it stands after the vote. */
export async function postDecision(body: DecisionBody): Promise<Approval> {
  return unwrap(
    await api.POST('/api/approvals/{approval_id}/decision', {
      params: { path: { approval_id: body.approval } },
      body,
    }),
  );
}

/** The address of an approval's evidence file (a download). */
export function evidenceHref(approvalId: number): string {
  return `/api/approvals/${approvalId}/evidence`;
}
