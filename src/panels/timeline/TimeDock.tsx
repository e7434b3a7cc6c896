// The time-travel and sharing strip: the timeline, the session bar and the open-problems panel.
// (Fork and compare lives in the side panel's Compare tab, so its results never squeeze the canvas.)
import { ReplayBanner } from './ReplayBanner';
import { OpenIssuesPanel, SessionBar } from './SessionBar';
import { Timeline } from './Timeline';
import './timeline.css';

export function TimeDock() {
  return (
    <div className="time-dock">
      <OpenIssuesPanel />
      <ReplayBanner />
      <Timeline />
      <SessionBar />
    </div>
  );
}
