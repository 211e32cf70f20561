// What a port is called on the canvas: the catalog's name of a fixed port, or, for a wait_event node's
// event ports, the event name itself (the author's word, like a node id).
import { PORTS, type FlowNode } from '../flows/document';

export function portLabel(
  t: (key: string) => string,
  node: Pick<FlowNode, 'type'> | undefined,
  port: string,
): string {
  if (node?.type === 'wait_event' && !(PORTS.wait_event ?? []).includes(port)) return port;
  // A node no longer in the document (a removed wire's): a port no node type has is an author's event.
  if (!node && !Object.values(PORTS).some((ports) => ports.includes(port))) return port;
  return t(`port_${port}`);
}
