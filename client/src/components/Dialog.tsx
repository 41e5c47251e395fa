import * as Radix from '@radix-ui/react-dialog';
import type { MouseEvent, ReactNode, RefObject } from 'react';
import { useBackCloses } from './back-closes';
import './components.css';

/** The dialog's heading: names the dialog (aria-labelledby). */
export const DialogTitle = Radix.Title;
/** The dialog's message: describes the dialog (aria-describedby). */
export const DialogDescription = Radix.Description;

/**
 * The one modal of the app, on Radix's dialog: it renders into a portal over the page, keeps Tab
 * inside, hides the page from screen readers, closes on Escape and gives the focus back to the
 * element that had it. It is shown while mounted: the caller renders it when open. The phone's
 * Back button closes it instead of leaving the page (back-closes.ts).
 */
export function Dialog({
  className,
  testId,
  onClose,
  initialFocus,
  described = false,
  onClick,
  children,
}: {
  className: string;
  testId?: string;
  /** Escape or Back. A press outside does not close it (an answer is given with its buttons). */
  onClose: () => void;
  /** Takes the focus when the dialog opens (the safe answer, a search input); else the first. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Whether a DialogDescription describes it (none: no aria-describedby). */
  described?: boolean;
  onClick?: (event: MouseEvent<HTMLDivElement>) => void;
  children: ReactNode;
}) {
  useBackCloses(onClose);
  return (
    <Radix.Root open onOpenChange={(open) => !open && onClose()}>
      <Radix.Portal>
        <Radix.Overlay className="modal-overlay" />
        <Radix.Content
          className={`modal ${className}`}
          data-testid={testId}
          aria-modal="true"
          {...(described ? {} : { 'aria-describedby': undefined })}
          onOpenAutoFocus={(event) => {
            const target = initialFocus?.current;
            if (!target) return;
            event.preventDefault();
            target.focus();
          }}
          onPointerDownOutside={(event) => event.preventDefault()}
          onClick={onClick}
        >
          {children}
        </Radix.Content>
      </Radix.Portal>
    </Radix.Root>
  );
}
