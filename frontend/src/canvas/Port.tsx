// A card's port: React Flow's handle, which the mouse drags a wire from (or clicks, then clicks an input),
// made a button for the keyboard as well. Tab reaches it; Enter or Space on an out port starts a wire
// (React Flow's click-to-connect) and on another card's input ends it; Escape drops a started wire. A
// click made by the keyboard has no pointer position, and React Flow then takes the handle clicked.
import type { KeyboardEvent } from 'react';
import { Handle, Position, useStoreApi } from '@xyflow/react';

interface Props {
  /** `in`, or an out port's name. */
  id: string;
  /** The accessible name: which port of which card, in the reader's language. */
  name: string;
  connectable: boolean;
}

export function Port({ id, name, connectable }: Props) {
  const store = useStoreApi();
  const source = id !== 'in';
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Enter' || event.key === ' ') {
      // Not to the card as well, which would take Enter as selecting it, nor Space as the pan key.
      event.preventDefault();
      event.stopPropagation();
      event.currentTarget.click();
    } else if (event.key === 'Escape') {
      store.setState({ connectionClickStartHandle: null });
    }
  };
  return (
    <Handle
      type={source ? 'source' : 'target'}
      position={source ? Position.Bottom : Position.Top}
      id={id}
      data-port={source ? id : undefined}
      {...(connectable ? { tabIndex: 0, role: 'button', 'aria-label': name, onKeyDown } : {})}
    />
  );
}
