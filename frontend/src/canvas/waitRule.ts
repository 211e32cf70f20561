// A parallel's or a join's wait rule ("all", "first" or a number), as it reads on a card and in a panel.
export type WaitRule = 'all' | 'first' | number;

export function waitRule(config: Record<string, unknown>): WaitRule {
  const wait = config.wait;
  if (typeof wait === 'number' && Number.isInteger(wait) && wait >= 1) return wait;
  return wait === 'first' ? 'first' : 'all';
}

/** The rule in words: `total` is how many can arrive (a parallel's branches, a join's incoming wires), or
 * null for a parallel over items, whose branches are counted only when a run gets there. */
export function waitText(
  t: (key: string, params?: Record<string, unknown>) => string,
  rule: WaitRule,
  total: number | null,
): string {
  if (rule === 'all') return t('ui_wait_all');
  if (rule === 'first') return t('ui_wait_first');
  if (total === null) return t('ui_wait_some_items', { count: rule, wait: rule });
  return t('ui_wait_some', { wait: rule, branches: total });
}

/** A parallel with `items` starts one branch per item of the list, whatever its wires. */
export function overItems(config: Record<string, unknown>): boolean {
  return typeof config.items === 'string' && config.items !== '';
}
