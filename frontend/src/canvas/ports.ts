// What a port is called on the canvas: the catalog's name of a fixed port, or, for a wait_event node's
// event ports, the event name itself (the author's word, like a node id).
import { PORTS, type FlowNode } from '../flows/document';

/** Whether the port is named by the author (a wait_event's event), which the page marks translate="no". */
export function authoredPort(node: Pick<FlowNode, 'type'> | undefined, port: string): boolean {
  if (node?.type === 'wait_event') return !(PORTS.wait_event ?? []).includes(port);
  // A node no longer in the document (a removed wire's): a port no node type has is an author's event.
  return !node && !Object.values(PORTS).some((ports) => ports.includes(port));
}

export function portLabel(
  t: (key: string) => string,
  node: Pick<FlowNode, 'type'> | undefined,
  port: string,
): string {
  if (authoredPort(node, port)) return port;
  return t(`port_${port}`);
}
