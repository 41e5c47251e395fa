import { useCallback, useEffect, useRef, useState } from 'react';

/** What the browser may not have: Safari on iOS has no Fullscreen API on pages, nor a lock. */
type Lockable = ScreenOrientation & { lock?: (o: 'landscape') => Promise<void> };

/**
 * The chart's full-screen mode (DECISIONS, The chart full screen): React state, so a rotation
 * (a resize) keeps it. Entering also asks the browser for the real full screen and a landscape
 * lock where it grants them (Android Chrome); where it refuses (a desktop lock, iOS) the mode is
 * the page's own overlay over the whole viewport, and nothing is said. Leaving gives both back.
 * The browser's own exit from full screen (its Escape, Android's Back in full screen) leaves
 * the mode too.
 */
export function useFullscreen(): { full: boolean; enter: () => void; leave: () => void } {
  const [full, setFull] = useState(false);
  // Whether the document went full screen at our request: only then does its exit end the mode.
  const native = useRef(false);

  const leave = useCallback(() => {
    setFull(false);
    try {
      screen.orientation?.unlock?.();
    } catch {
      // Not locked, or no lock at all.
    }
    if (native.current && document.fullscreenElement)
      void document.exitFullscreen?.().catch(() => undefined);
    native.current = false;
  }, []);

  // Called from the tap itself: the browser grants the full screen to a user's gesture only.
  const enter = useCallback(() => {
    setFull(true);
    const root = document.documentElement;
    if (!root.requestFullscreen || document.fullscreenElement) return;
    root
      .requestFullscreen({ navigationUI: 'hide' })
      .then(() => {
        native.current = true;
        return (screen.orientation as Lockable | undefined)?.lock?.('landscape');
      })
      .catch(() => undefined);
  }, []);

  useEffect(() => {
    if (!full) return;
    const onChange = () => {
      if (native.current && !document.fullscreenElement) {
        native.current = false;
        setFull(false);
      }
    };
    const onKey = (event: KeyboardEvent) => {
      // An open dialog (the order's confirmation, the settings) takes its own Escape first.
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (document.querySelector('[role="dialog"], [role="alertdialog"]')) return;
      leave();
    };
    document.addEventListener('fullscreenchange', onChange);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('fullscreenchange', onChange);
      document.removeEventListener('keydown', onKey);
    };
  }, [full, leave]);

  // Leaving the page (another product, Back past the mode) leaves the full screen too.
  useEffect(() => leave, [leave]);

  return { full, enter, leave };
}
