// dagre's layout (canvas/layout.ts) in a worker, so a large document opened without positions shows at
// once with the quick layout (flows/quickLayout.ts) and the page answers while dagre works. Where a
// worker cannot start, the layout runs here, after the page has drawn.
import { layout } from '../canvas/layout';
import type { FlowDocument, Position } from './document';

export function layoutInWorker(doc: FlowDocument): Promise<Map<string, Position>> {
  return new Promise((resolve, reject) => {
    let worker: Worker;
    try {
      worker = new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' });
    } catch {
      window.setTimeout(() => resolve(layout(doc)), 0);
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
