// dagre's layout (canvas/layout.ts) in a worker: Arrange, and a large document opened without positions
// (shown at once with the quick layout, flows/quickLayout.ts), while the page keeps answering. dagre takes
// a second or more on 500 nodes. The page itself never loads dagre unless a worker cannot start; then the
// layout is imported and run here, after the page has drawn.
import type { FlowDocument, Position } from './document';

export function layoutInWorker(doc: FlowDocument): Promise<Map<string, Position>> {
  return new Promise((resolve, reject) => {
    let worker: Worker;
    try {
      worker = new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' });
    } catch {
      window.setTimeout(() => {
        import('../canvas/layout').then((m) => resolve(m.layout(doc)), reject);
      }, 0);
      return;
    }
    worker.onmessage = (event: MessageEvent<[string, Position][]>) => {
      worker.terminate();
      resolve(new Map(event.data));
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(event.message));
    };
    worker.postMessage(doc);
  });
}
