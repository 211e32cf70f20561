// The validator's warnings (`warnings` beside `findings`): they never block a save, and the canvas shows
// them in a softer style than findings. A small store the cards read, so a warning arriving redraws the
// cards it names without touching how the canvas builds its nodes.
import { create } from 'zustand';
import type { Finding } from '../flows/findings';

interface WarningState {
  /** The warnings' sentences by the node they name. */
  byNode: Record<string, string[]>;
  show: (warnings: Finding[]) => void;
}

export const useWarnings = create<WarningState>((set) => ({
  byNode: {},
  show: (warnings) => {
    const byNode: Record<string, string[]> = {};
    for (const w of warnings) if (w.node) (byNode[w.node] ??= []).push(w.message);
    set({ byNode });
  },
}));
