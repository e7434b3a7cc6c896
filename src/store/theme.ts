// Light or dark: the system's preference unless the user picked one (kept in localStorage).
import { create } from 'zustand';

export type ThemeChoice = 'system' | 'light' | 'dark';
const STORAGE_KEY = 'kcl-theme';

const stored = (): ThemeChoice => {
  try {
    const value = globalThis.localStorage?.getItem(STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
};

export interface ThemeState {
  choice: ThemeChoice;
  setChoice(choice: ThemeChoice): void;
}

export const useThemeStore = create<ThemeState>((set) => ({
  choice: stored(),
  setChoice(choice) {
    try {
      if (choice === 'system') globalThis.localStorage?.removeItem(STORAGE_KEY);
      else globalThis.localStorage?.setItem(STORAGE_KEY, choice);
    } catch {
      // Private browsing may refuse storage; the choice still holds for this page.
    }
    set({ choice });
  },
}));
