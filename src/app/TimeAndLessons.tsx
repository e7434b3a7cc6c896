// The time-travel dock (timeline, session bar, compare) and the lessons, placed beside the App
// until the page layout gives them their own places (under the canvas, in the side panels).
import { LessonDock, type ViewMode } from '../lessons';
import { TimeDock } from '../panels/timeline';

export function TimeAndLessons({ mode }: { mode: ViewMode }) {
  return (
    <>
      <div className="time-dock-slot">
        <TimeDock />
      </div>
      <LessonDock mode={mode} />
    </>
  );
}
