// What the signed-in user may do, from /api/me: the one helper every page asks, so a page offers only
// what the server would accept (the server refuses the rest anyway; nothing here stands in for that).
import { useQuery } from '@tanstack/react-query';
import { meQuery, type Grant } from '../api/me';

export type { Grant };

/** Where a right is asked for: everywhere (null: a grant without a flow, as creating a flow takes), on
 * one flow (a grant everywhere or on that flow), or on `some` flow (the pages a right opens: an auditor of
 * one flow has the audit page, an approver of one flow the inbox). */
export type Where = number | null | 'some';

export function allows(grants: readonly Grant[], right: string, where: Where = null): boolean {
  return grants.some(
    (g) => g.right === right && (where === 'some' || g.flow === null || (where !== null && g.flow === where)),
  );
}

export function useRights(): (right: string, where?: Where) => boolean {
  const me = useQuery(meQuery);
  const grants = me.data?.rights ?? [];
  return (right, where = null) => allows(grants, right, where);
}
