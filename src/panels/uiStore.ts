// Which side-panel tab is open, and requests to bring the inspector forward.
import { create } from 'zustand';

export type PanelTab =
  | 'controls'
  | 'inspector'
  | 'log'
  | 'messages'
  | 'dashboard'
  | 'events'
  | 'vitals'
  | 'regions'
  | 'compare'
  | 'terminal'
  | 'whatif';

export const PANEL_TABS: readonly { id: PanelTab; label: string }[] = [
  { id: 'controls', label: 'Controls' },
  { id: 'inspector', label: 'Inspector' },
  { id: 'dashboard', label: 'Dashboard' },
  { id: 'events', label: 'Event log' },
  { id: 'log', label: 'Partition log' },
  { id: 'messages', label: 'Messages' },
  { id: 'vitals', label: 'Vital signs' },
  { id: 'regions', label: 'Regions' },
  { id: 'compare', label: 'Compare' },
  { id: 'terminal', label: 'Terminal' },
  { id: 'whatif', label: 'What if' },
];

interface PanelsUiState {
  tab: PanelTab;
  /** Bumped when a panel asks the inspector to take the keyboard focus (its heading). */
  focusInspector: number;
  setTab(tab: PanelTab): void;
  /** Opens the inspector and moves the focus to it, after a selection made inside a panel. */
  revealInspector(): void;
  /** The Import layout dialog is open (over the side panels, never over the cluster). */
  importOpen: boolean;
  setImportOpen(open: boolean): void;
}

export const usePanelsUi = create<PanelsUiState>((set) => ({
  tab: 'controls',
  focusInspector: 0,
  setTab: (tab) => set({ tab }),
  revealInspector: () => set((state) => ({ tab: 'inspector', focusInspector: state.focusInspector + 1 })),
  importOpen: false,
  setImportOpen: (importOpen) => set({ importOpen }),
}));
