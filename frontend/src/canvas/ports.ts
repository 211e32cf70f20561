// What a port is called on the canvas: the catalog's name of a fixed port, or, for a wait_event node's
// event ports, the event name itself (the author's word, like a node id).
import { PORTS, type FlowNode } from '../flows/document';

/** Whether the port is named by the author (a wait_event's event), which the page marks translate="no". */
export function authoredPort(node: Pick<FlowNode, 'type'> | undefined, port: string): boolean {
  return node?.type === 'wait_event' && !(PORTS.wait_event ?? []).includes(port);
}

export function portLabel(
  t: (key: string) => string,
  node: Pick<FlowNode, 'type'> | undefined,
  port: string,
): string {
  if (authoredPort(node, port)) return port;
  return t(`port_${port}`);
}
