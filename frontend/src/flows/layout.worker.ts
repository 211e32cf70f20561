// dagre off the main thread: a document in, its positions out (as [id, position] pairs).
import { layout } from '../canvas/layout';
import type { FlowDocument } from './document';

const scope = self as unknown as {
  onmessage: (event: MessageEvent<FlowDocument>) => void;
  postMessage: (message: unknown) => void;
};
scope.onmessage = (event) => scope.postMessage([...layout(event.data)]);
