// What the page's live region says next: elections, fencing, refused commands. Screen readers
// read each new text once; `seq` makes a repeated sentence count as new.
import { create } from 'zustand';

export interface AnnouncementState {
  text: string;
  seq: number;
  /** The latest refused command or failure, shown on screen until the next one. */
  lastError: string | null;
  announce(text: string): void;
  reportError(text: string): void;
}

export const useAnnouncementStore = create<AnnouncementState>((set) => ({
  text: '',
  seq: 0,
  lastError: null,
  announce: (text) => set((s) => ({ text, seq: s.seq + 1 })),
  reportError: (text) => set((s) => ({ text, seq: s.seq + 1, lastError: text })),
}));
