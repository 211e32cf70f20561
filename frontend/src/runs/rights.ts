// What the signed-in user may do, from /api/me: buttons a user has no right to press are not shown (the
// server refuses them anyway).
import { useQuery } from '@tanstack/react-query';
import { meQuery } from '../shell/me';

interface Grant {
  right: string;
  flow: number | null;
}

export function useRights(): (right: string, flow?: number | null) => boolean {
  const me = useQuery(meQuery);
  const grants = (me.data?.rights ?? []) as Grant[];
  return (right, flow = null) =>
    grants.some((g) => g.right === right && (g.flow === null || (flow !== null && g.flow === flow)));
}
