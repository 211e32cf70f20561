import { describe, expect, it } from 'vitest';
import { rightLabel, splitGrant } from './people';

describe('grants as the People page reads them', () => {
  it('splits a grant into its right and flow', () => {
    expect(splitGrant('decide')).toEqual({ right: 'decide', flow: null });
    expect(splitGrant('decide:12')).toEqual({ right: 'decide', flow: 12 });
    expect(splitGrant('use_server:web-1')).toEqual({ right: 'use_server', flow: null });
  });

  it("names a flow grant's flow, or its id when the reader cannot see the flow", () => {
    const t = (key: string, options?: Record<string, unknown>) => `${key}${JSON.stringify(options ?? {})}`;
    const names = new Map([[12, 'Invoices']]);
    expect(rightLabel(t, 'decide:12', names)).toBe(
      'ui_people_right_on_flow{"right":"ui_people_right_decide{}","flow":"Invoices"}',
    );
    expect(rightLabel(t, 'run:7', names)).toContain('"flow":"#7"');
    expect(rightLabel(t, 'admin', names)).toBe(
      'ui_people_right_everywhere{"right":"ui_people_right_admin{}"}',
    );
  });
});
