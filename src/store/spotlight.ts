// What a lesson step talks about, for the canvas and the side panels to highlight and keep in view:
// nodes (brokers, controllers), a side-panel form, and the partition whose log a step is about. Set by the lesson dock, read by the canvas.
import { create } from 'zustand';

export interface Spotlight {
  /** Node ids to ring on the canvas. */
  nodes: number[];
  /** A side-panel form: the tab it is in and the heading of its section. */
  panel: { tab: string; section: string } | null;
  /** A partition ("topic-partition") whose log the Partition log tab opens on (with panel's tab 'log'). */
  log?: string;
}

export const NO_SPOTLIGHT: Spotlight = { nodes: [], panel: null };

export const useSpotlightStore = create<Spotlight>(() => NO_SPOTLIGHT);

export function setSpotlight(spotlight: Spotlight): void {
  const now = useSpotlightStore.getState();
  const same =
    now.nodes.join() === spotlight.nodes.join() &&
    now.panel?.tab === spotlight.panel?.tab &&
    now.panel?.section === spotlight.panel?.section &&
    now.log === spotlight.log;
  if (!same) useSpotlightStore.setState(spotlight, true);
}
