import { createContext, useContext } from 'react';

/**
 * Where the ticket draws its compact Buy up / Buy down while the chart fills the screen: the
 * full-screen chart's bottom bar (FullscreenChart.tsx), null while the chart is in the page.
 * The ticket keeps its own state (duration, amount, confirmation), so the pair trades exactly
 * as the docked buttons do.
 */
export const FullscreenSlot = createContext<HTMLElement | null>(null);

export const useFullscreenSlot = (): HTMLElement | null => useContext(FullscreenSlot);
