// The approvals the user may decide now (named, or in a named group, with the decide right), one
// cached query for the page and the header's badge; refreshed by the runs' event stream.
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { Approval } from '../runs/types';

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
