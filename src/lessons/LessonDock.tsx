// Where lessons appear outside the side panels: a "Lessons" toggle in the page header, and in embed
// and presenter modes the lesson itself over the canvas (presenter mode adds the caption and
// clicker keys).
import { useEffect } from 'react';
import { create } from 'zustand';
import { LessonPanel, PresenterCaption, useLessonKeys } from './LessonPanel';
import { startLesson, useLessonStore } from './lessonStore';
import type { ViewMode } from './progress';
import { sessionPayloadOf } from '../scenario/session';
import './lessons.css';

/** Whether the lesson overlay is open: the header's toggle and the overlay share it. */
const useDockStore = create<{ open: boolean; setOpen: (open: boolean) => void }>((set) => ({
  open: false,
  setOpen: (open) => set({ open }),
}));

/** The buttons that sit at the end of the page header. */
export function LessonToggles({ mode }: { mode: ViewMode }) {
  const open = useDockStore((s) => s.open);
  const setOpen = useDockStore((s) => s.setOpen);
  if (mode.embed) return null;
  return (
    <>
      {mode.present && (
        <button
          type="button"
          className="lesson-toggle"
          onClick={() => void document.documentElement.requestFullscreen?.().catch(() => {})}
        >
          Full screen
        </button>
      )}
      <button type="button" className="lesson-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide lessons' : 'Lessons'}
      </button>
    </>
  );
}

export function LessonDock({ mode }: { mode: ViewMode }) {
  const active = useLessonStore((s) => s.lessonId !== null);
  const open = useDockStore((s) => s.open);
  useLessonKeys(mode.present || active);

  // The overlay sits under the page header, whose height changes as it wraps (--header-bottom).
  useEffect(() => {
    const header = document.querySelector('.page-header');
    if (!header || typeof ResizeObserver === 'undefined') return;
    const update = () =>
      document.documentElement.style.setProperty(
        '--header-bottom',
        `${Math.round(header.getBoundingClientRect().bottom)}px`,
      );
    const observer = new ResizeObserver(update);
    observer.observe(header);
    update();
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    document.body.classList.toggle('presenting', mode.present);
    document.body.classList.toggle('embed', mode.embed);
    useDockStore.getState().setOpen(mode.embed || mode.present || mode.lessonId !== null);
    // A link copied during a lesson carries its session (#s=) at the step's beginning: start there.
    if (mode.lessonId) startLesson(mode.lessonId, mode.stepIndex, sessionPayloadOf(location.hash) !== null);
  }, [mode]);

  return (
    <>
      {open && (
        <div className="lesson-overlay">
          <LessonPanel />
        </div>
      )}
      {mode.present && <PresenterCaption />}
    </>
  );
}
