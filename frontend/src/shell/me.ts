// Who is logged in: one query, shared by the boot (main.tsx, which asks at once), the layout and the rights.
import { api, unwrap } from '../api/client';

export const meQuery = {
  queryKey: ['me'] as const,
  queryFn: async () => unwrap(await api.GET('/api/me')),
};
