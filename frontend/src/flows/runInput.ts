// What the Run dialog offers as the trigger's input: the sample typed in the walk panel, else the input
// this flow was last run with from this browser (kept per flow in localStorage), else an empty object.

/** The storage the last inputs are kept in: window.localStorage, or a stand-in in tests. */
export type Store = Pick<Storage, 'getItem' | 'setItem'>;

/** Where one flow's last input is kept. */
export function inputKey(flowId: number): string {
  return `flowyard.run-input.${flowId}`;
}

/** The text of the input this flow was last run with here, or null; a storage that refuses (private
 * mode, a full quota) has none. */
export function lastInput(store: Store, flowId: number): string | null {
  try {
    return store.getItem(inputKey(flowId));
  } catch {
    return null;
  }
}

/** Keep `text` as this flow's last input; a storage that refuses keeps nothing, and the run goes on. */
export function rememberInput(store: Store, flowId: number, text: string): void {
  try {
    store.setItem(inputKey(flowId), text);
  } catch {
    // Nothing to do: the next Run offers the walk's sample or an empty object instead.
  }
}

/** The text the dialog opens with. */
export function firstInput(sample: string, last: string | null): string {
  if (sample.trim()) return sample;
  if (last?.trim()) return last;
  return '{}';
}
