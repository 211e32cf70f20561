// What a node type looks like: its icon (lucide-react, imported one by one so the bundle carries only
// these) and its kind, which gives the card its colour: the trigger, logic (what decides the way), waits
// (what a run waits at) and actions (what reaches the world outside). The editor and the run page draw
// the same; app.css has the colours (`.kind-*`).
import {
  Braces,
  CircleStop,
  GitBranch,
  Globe,
  Hourglass,
  Mail,
  Merge,
  Play,
  Radio,
  Repeat,
  ScrollText,
  Split,
  SquareTerminal,
  UserCheck,
  ListOrdered,
  type LucideIcon,
} from 'lucide-react';

export type Kind = 'trigger' | 'logic' | 'wait' | 'action';

const LOOKS: Record<string, { icon: LucideIcon; kind: Kind }> = {
  trigger: { icon: Play, kind: 'trigger' },
  set: { icon: Braces, kind: 'logic' },
  condition: { icon: GitBranch, kind: 'logic' },
  foreach: { icon: ListOrdered, kind: 'logic' },
  repeat: { icon: Repeat, kind: 'logic' },
  break: { icon: CircleStop, kind: 'logic' },
  parallel: { icon: Split, kind: 'logic' },
  join: { icon: Merge, kind: 'logic' },
  approval: { icon: UserCheck, kind: 'wait' },
  wait_event: { icon: Radio, kind: 'wait' },
  delay: { icon: Hourglass, kind: 'wait' },
  http: { icon: Globe, kind: 'action' },
  notify: { icon: Mail, kind: 'action' },
  command: { icon: SquareTerminal, kind: 'action' },
  log: { icon: ScrollText, kind: 'action' },
};
// A type this editor does not know yet (a newer server) still draws, as logic with no particular icon.
const UNKNOWN = { icon: Braces, kind: 'logic' as Kind };

/** The icon and the kind of a node type. */
export function looks(type: string): { icon: LucideIcon; kind: Kind } {
  return LOOKS[type] ?? UNKNOWN;
}

// The colours of app.css's `.kind-*`, for what CSS does not reach (the minimap draws SVG from props).
const COLOURS: Record<Kind, string> = {
  trigger: '#2f7d4f',
  logic: '#6941c6',
  wait: '#a35208',
  action: '#1f5fbf',
};

/** The colour of a node type's kind. */
export function kindColour(type: string): string {
  return COLOURS[looks(type).kind];
}
