import { useToast } from '@client/state/toast';

/**
 * The one toast region of the app (mounted by the layout). The live region stays in the page
 * so screen readers announce each new text; `key` restarts the animation for a repeated text.
 */
export function Toaster() {
  const toast = useToast();
  return (
    <div className="toast-region" role="status" aria-live="polite" aria-atomic="true">
      {toast && (
        <p key={toast.id} className="toast" data-testid="toast">
          {toast.text}
        </p>
      )}
    </div>
  );
}
