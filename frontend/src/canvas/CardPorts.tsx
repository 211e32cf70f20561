// A card's ports: the input on top (not on the trigger: nothing leads into it) and one named port per out
// port along the bottom, spread evenly (canvas/handles.ts declares the same places to React Flow). The
// run page draws them too, unconnectable, so that its wires leave from the same ports as the editor's.
import { useTranslation } from 'react-i18next';
import { portsOf, type FlowNode } from '../flows/document';
import { authoredPort, portLabel } from './ports';
import { Port } from './Port';

export function CardPorts({ node, connectable }: { node: FlowNode; connectable: boolean }) {
  const { t } = useTranslation();
  const ports = portsOf(node);
  const name = node.label ?? node.id;
  return (
    <>
      {node.type !== 'trigger' && (
        <Port id="in" name={t('ui_canvas_port_in', { node: name })} connectable={connectable} />
      )}
      <div className="card-ports">
        {ports.map((port, i) => {
          const label = portLabel(t, node, port);
          return (
            <div
              key={port}
              className="card-port"
              // As wide as the space between two ports: a longer name wraps there instead of running
              // into its neighbour's (the pseudo-locale's and German's are longer than English).
              style={{
                left: `${((i + 1) * 100) / (ports.length + 1)}%`,
                width: `${100 / (ports.length + 1)}%`,
              }}
            >
              <span className="card-port-name" translate={authoredPort(node, port) ? 'no' : undefined}>
                {label}
              </span>
              <Port
                id={port}
                name={t('ui_canvas_port_out', { port: label, node: name })}
                connectable={connectable}
              />
            </div>
          );
        })}
      </div>
    </>
  );
}
