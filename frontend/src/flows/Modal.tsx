// A modal dialog (the browser's own <dialog>: focus kept inside, Escape closes, the page behind inert),
// open while it is mounted.
import { useEffect, useRef, type ReactNode } from 'react';
import './dialogs.css';

export function Modal({
  titleId,
  onClose,
  children,
}: {
  titleId: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className="modal"
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault(); // the page decides, by unmounting
        onClose();
      }}
    >
      {children}
    </dialog>
  );
}
