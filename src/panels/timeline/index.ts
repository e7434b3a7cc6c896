// Time travel and sharing for src/app to place: the scrubber under the canvas, the session bar
// (Copy link, Export, Import), the panel listing a bad link's problems, and fork-and-compare.
export { Timeline } from './Timeline';
export { SessionBar, OpenIssuesPanel, importSessionFile } from './SessionBar';
export { ComparePanel } from './ComparePanel';
export { TimeDock } from './TimeDock';
