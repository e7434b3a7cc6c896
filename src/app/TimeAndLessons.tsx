// The time-travel dock (timeline, session bar, compare) under the canvas, and the lesson dock
// beside it; the lesson step's side-panel form is brought forward (src/app/followSubject.ts).
import { LessonDock, type ViewMode } from '../lessons';
import { TimeDock } from '../panels/timeline';
import { useFollowSubject } from './followSubject';

export function TimeSlot() {
  return (
    <div className="time-dock-slot">
      <TimeDock />
    </div>
  );
}

export function LessonColumn({ mode }: { mode: ViewMode }) {
  useFollowSubject();
  return <LessonDock mode={mode} />;
}
