// The first-run orientation: shown once on a first visit (never in embed mode, a lesson or a
// shared link), remembered as dismissed in localStorage, and opened again from the help.
import { create } from 'zustand';

const STORAGE_KEY = 'kcl-orientation-dismissed';

export interface OrientationState {
  open: boolean;
  /** Opened by the person (from the help), so it takes the focus; a first-visit one does not. */
  focus: boolean;
}

export const useOrientationStore = create<OrientationState>(() => ({ open: false, focus: false }));

export function orientationDismissed(): boolean {
  try {
    return globalThis.localStorage?.getItem(STORAGE_KEY) === '1';
  } catch {
    return false;
  }
}

/** On page load: shows the orientation when this is a first visit to the free canvas. */
export function showOrientationOnFirstVisit(page: { embed: boolean; lesson: boolean; link: boolean }): void {
  if (page.embed || page.lesson || page.link || orientationDismissed()) return;
  useOrientationStore.setState({ open: true, focus: false });
}

export function showOrientation(): void {
  useOrientationStore.setState({ open: true, focus: true });
}

export function dismissOrientation(): void {
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, '1');
  } catch {
    // Private browsing may refuse storage; it stays closed for this page.
  }
  useOrientationStore.setState({ open: false, focus: false });
}
