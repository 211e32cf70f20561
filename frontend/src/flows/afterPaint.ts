// Work that can wait until the page has drawn: a frame, then a task. Opening a large flow, dagre (a
// second of CPU in a worker) and the first validation (the server's CPU) would otherwise run beside the
// first drawing of the canvas, on a machine of two cores, and the canvas would answer later.
export function afterPaint(work: () => void): () => void {
  let timer: number | undefined;
  const frame = requestAnimationFrame(() => {
    timer = window.setTimeout(work, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== undefined) window.clearTimeout(timer);
  };
}
