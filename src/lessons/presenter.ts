// Presenter mode, switched on by ?present, the P key or the buttons in the lesson dock: large type,
// the narration as a caption in the dock, the side panels folded away unless a step needs them.
// The address keeps ?present, so a reload or a copied link stays in presenter mode.
import { create } from 'zustand';

interface PresenterState {
  present: boolean;
  /** In presenter mode the side panels show only when asked (or when a step's form is in them). */
  panelsShown: boolean;
}

export const usePresenterStore = create<PresenterState>(() => ({
  present: new URLSearchParams(globalThis.location?.search ?? '').has('present'),
  panelsShown: false,
}));

export function setPresenting(present: boolean): void {
  usePresenterStore.setState({ present, panelsShown: false });
  if (typeof history === 'undefined') return;
  const url = new URL(location.href);
  if (present) url.searchParams.set('present', '');
  else url.searchParams.delete('present');
  // `?present=` reads as `?present`; keep the short form.
  history.replaceState(history.state, '', url.href.replace(/([?&]present)=(?=&|#|$)/, '$1'));
}

export const togglePresenting = () => setPresenting(!usePresenterStore.getState().present);

export const setPanelsShown = (panelsShown: boolean) => usePresenterStore.setState({ panelsShown });
