// Where lessons appear outside the side panels: a "Lessons" toggle, and in embed and presenter
// modes the lesson itself over the canvas (presenter mode adds the caption and clicker keys).
import { useEffect, useState } from 'react';
import { LessonPanel, PresenterCaption, useLessonKeys } from './LessonPanel';
import { startLesson, useLessonStore } from './lessonStore';
import type { ViewMode } from './progress';
import './lessons.css';

export function LessonDock({ mode }: { mode: ViewMode }) {
  const active = useLessonStore((s) => s.lessonId !== null);
  const [open, setOpen] = useState(mode.embed || mode.present || mode.lessonId !== null);
  useLessonKeys(mode.present || active);

  useEffect(() => {
    document.body.classList.toggle('presenting', mode.present);
    document.body.classList.toggle('embed', mode.embed);
    if (mode.lessonId) startLesson(mode.lessonId);
  }, [mode]);

  return (
    <>
      {!mode.embed && (
        <button type="button" className="lesson-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Hide lessons' : 'Lessons'}
        </button>
      )}
      {mode.present && (
        <button
          type="button"
          className="lesson-toggle"
          onClick={() => void document.documentElement.requestFullscreen?.().catch(() => {})}
        >
          Full screen
        </button>
      )}
      {open && (
        <div className="lesson-overlay">
          <LessonPanel />
        </div>
      )}
      {mode.present && <PresenterCaption />}
    </>
  );
}
