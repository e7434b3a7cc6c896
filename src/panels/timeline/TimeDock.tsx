// The time-travel and sharing strip: the timeline, the session bar and the open-problems panel.
import { ComparePanel } from './ComparePanel';
import { OpenIssuesPanel, SessionBar } from './SessionBar';
import { Timeline } from './Timeline';
import './timeline.css';

export function TimeDock() {
  return (
    <div className="time-dock">
      <OpenIssuesPanel />
      <Timeline />
      <SessionBar />
      <details>
        <summary>Fork and compare</summary>
        <ComparePanel />
      </details>
    </div>
  );
}
