// The last sample walk and the answers it was given: the panel shows it, the canvas highlights its path.
import { create } from 'zustand';
import type { Answer, WalkResult } from './walk';

interface WalkState {
  result: WalkResult | null;
  answers: Answer[];
  /** The sample input as typed; template completion reads the trigger's fields from it. */
  sample: string;
  setSample: (sample: string) => void;
  show: (result: WalkResult, answers: Answer[]) => void;
  clear: () => void;
}

export const useWalk = create<WalkState>((set) => ({
  result: null,
  answers: [],
  sample: '',
  setSample: (sample) => set({ sample }),
  show: (result, answers) => set({ result, answers }),
  clear: () => set((s) => (s.result || s.answers.length ? { result: null, answers: [] } : {})),
}));
