// Where lessons appear outside the side panels: a "Lessons" toggle in the page header, and the
// lesson dock, a column beside the canvas (never over it) that the canvas yields to. In presenter
// mode the dock carries the narration as a caption in large type.
import { useEffect, useMemo } from 'react';
import { create } from 'zustand';
import { NO_SPOTLIGHT, setSpotlight } from '../store/spotlight';
import { useSimulationStore } from '../store/simulation';
import { LessonPanel, PresenterCaption } from './LessonPanel';
import { currentStep, startLesson, useLessonStore } from './lessonStore';
import { setPanelsShown, setPresenting, usePresenterStore } from './presenter';
import type { ViewMode } from './progress';
import { sessionPayloadOf } from '../scenario/session';
import { subjectOf } from './subject';
import './lessons.css';

/** Whether the lesson dock is open: the header's toggle and the dock share it. */
const useDockStore = create<{ open: boolean; setOpen: (open: boolean) => void }>((set) => ({
  open: false,
  setOpen: (open) => set({ open }),
}));

/** The buttons that sit at the end of the page header. */
export function LessonToggles({ mode }: { mode: ViewMode }) {
  const open = useDockStore((s) => s.open);
  const setOpen = useDockStore((s) => s.setOpen);
  const present = usePresenterStore((s) => s.present);
  if (mode.embed) return null;
  return (
    <>
      {present && (
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

/** The step's subject, published for the canvas and the side panels (src/store/spotlight). */
function useSubject() {
  const lessonId = useLessonStore((s) => s.lessonId);
  const stepIndex = useLessonStore((s) => s.stepIndex);
  // The clock holds as a step begins, so the cluster when its subject is first wanted is the
  // step's start (what a step's commands are a function of).
  const phase = useLessonStore((s) => s.phase);
  const waiting = phase === 'predict' || phase === 'task';
  const subject = useMemo(() => {
    const step = currentStep({ ...useLessonStore.getState(), lessonId, stepIndex });
    const start = useSimulationStore.getState().snapshot;
    return lessonId && step ? subjectOf(lessonId, step, start) : NO_SPOTLIGHT;
  }, [lessonId, stepIndex, waiting]);
  useEffect(() => setSpotlight(subject), [subject]);
  useEffect(() => () => setSpotlight(NO_SPOTLIGHT), []);
  return subject;
}

/** Presenter mode's switches: on and off, and (while presenting) the folded side panels. */
function DockBar({ panelNeeded }: { panelNeeded: boolean }) {
  const present = usePresenterStore((s) => s.present);
  const panelsShown = usePresenterStore((s) => s.panelsShown);
  return (
    <div className="lesson-dock-bar">
      <button
        type="button"
        aria-pressed={present}
        aria-keyshortcuts="P"
        onClick={() => setPresenting(!present)}
      >
        <span aria-hidden="true">▣ </span>Presenter mode
      </button>
      {present && !panelNeeded && (
        <button type="button" aria-expanded={panelsShown} onClick={() => setPanelsShown(!panelsShown)}>
          {panelsShown ? 'Hide panels' : 'Show panels'}
        </button>
      )}
    </div>
  );
}

export function LessonDock({ mode }: { mode: ViewMode }) {
  const open = useDockStore((s) => s.open);
  const present = usePresenterStore((s) => s.present);
  const panelsShown = usePresenterStore((s) => s.panelsShown);
  const subject = useSubject();
  const panelNeeded = subject.panel !== null;

  useEffect(() => {
    document.body.classList.toggle('embed', mode.embed);
    useDockStore.getState().setOpen(mode.embed || mode.present || mode.lessonId !== null);
    // A link copied during a lesson carries its session (#s=) at the step's beginning: start there.
    if (mode.lessonId) startLesson(mode.lessonId, mode.stepIndex, sessionPayloadOf(location.hash) !== null);
  }, [mode]);

  // Presenter mode: large type; the side panels fold away unless asked for or a step's form is there.
  useEffect(() => {
    document.body.classList.toggle('presenting', present);
    document.body.classList.toggle('side-folded', present && !panelsShown && !panelNeeded);
    if (present) useDockStore.getState().setOpen(true);
  }, [present, panelsShown, panelNeeded]);

  if (!open) return null;
  return (
    <div
      className="lesson-dock"
      data-subject-nodes={subject.nodes.join(',')}
      data-subject-panel={subject.panel ? `${subject.panel.tab}/${subject.panel.section}` : ''}
    >
      {!mode.embed && <DockBar panelNeeded={panelNeeded} />}
      {present && <PresenterCaption />}
      <LessonPanel />
    </div>
  );
}
