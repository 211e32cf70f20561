// Node types whose panel is made by hand rather than generated from the schema (ConfigPanel.tsx): the
// wait rule of a parallel or a join (a choice between two words and a number, which a generated form
// shows badly), the wait_event node, whose event names are its ports, and the delay, whose two ways of
// waiting are a choice in words (DelayPanel.tsx).
import type { FlowNode } from '../flows/document';
import { DelayPanel } from './DelayPanel';
import { WaitEventPanel } from './WaitEventPanel';
import { WaitPanel } from './WaitPanel';
import './panels.css';

type Panel = (props: { node: FlowNode; readOnly: boolean }) => React.ReactNode;

export const OWN_PANELS: Record<string, Panel> = {
  parallel: WaitPanel,
  join: WaitPanel,
  wait_event: WaitEventPanel,
  delay: DelayPanel,
};
