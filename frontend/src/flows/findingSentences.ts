// The findings as sentences placed on their node and field (findingText.ts), in a small store the cards
// and the panels read: a finding arriving redraws what it names, without passing findings through every
// panel's props.
import { create } from 'zustand';
import type { Placed } from './findingText';

interface PlacedState {
  byNode: Record<string, Placed[]>;
  show: (placed: Placed[]) => void;
}

export const usePlaced = create<PlacedState>((set) => ({
  byNode: {},
  show: (placed) => {
    const byNode: Record<string, Placed[]> = {};
    for (const p of placed) if (p.node) (byNode[p.node] ??= []).push(p);
    set({ byNode });
  },
}));

const NONE: Placed[] = [];

/** The findings on `nodeId`'s field `field` (null: on the node as a whole). */
export function useFieldFindings(nodeId: string, field: string | null): string[] {
  const all = usePlaced((s) => s.byNode[nodeId] ?? NONE);
  return all.filter((p) => p.field === field).map((p) => p.sentence);
}
