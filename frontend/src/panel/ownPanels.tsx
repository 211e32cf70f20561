// Node types whose panel is made by hand rather than generated from the schema (ConfigPanel.tsx): the
// wait rule of a parallel or a join (a choice between two words and a number, which a generated form
// shows badly) and the wait_event node, whose event names are its ports.
import type { FlowNode } from '../flows/document';
import { WaitEventPanel } from './WaitEventPanel';
import { WaitPanel } from './WaitPanel';
import './panels.css';

type Panel = (props: { node: FlowNode; readOnly: boolean }) => React.ReactNode;

export const OWN_PANELS: Record<string, Panel> = {
  parallel: WaitPanel,
  join: WaitPanel,
  wait_event: WaitEventPanel,
};
