// The page's view of time travel and sessions: the timeline's branches and markers, the result
// of opening a link, and requests for the current session and for comparisons.
import { create } from 'zustand';
import type { ScenarioIssue } from '../sim/types';
import type { PageToWorker, WorkerToPage } from '../worker/protocol';
import { send } from './port';
import { usePlaybackStore } from './playback';
import { replyChannel } from './replies';

export type TimelineInfo = Extract<WorkerToPage, { type: 'timeline' }>['timeline'];
export type TimelineMarker = TimelineInfo['markers'][number];
export type SessionData = Extract<WorkerToPage, { type: 'session' }>['session'];
export type HashCheckData = Extract<WorkerToPage, { type: 'sessionLoaded' }>['check'];
export type SteppedTo = Omit<Extract<WorkerToPage, { type: 'steppedTo' }>, 'type'>;
export type ComparisonReply = Omit<Extract<WorkerToPage, { type: 'comparison' }>, 'type' | 'id'>;

export interface TimelineState {
  info: TimelineInfo | null;
  /** The last session opened from a link or a file: does its hash match? */
  loaded: { check: HashCheckData; refused: string[]; source: string } | null;
  /**
   * Problems of a link or file that could not be opened, and what ran instead: `outcome` is said
   * after the problem ("the running session is kept", "started the default cluster instead").
   */
  openIssues: { source: string; issues: ScenarioIssue[]; outcome: string } | null;
  /** Where the last ‹ Event / Event › landed: the events at that time. */
  stepped: SteppedTo | null;
  /**
   * A link or file being replayed (a long one reports its progress), or one whose replay was
   * cancelled (`cancelled`, until dismissed or another opens).
   */
  replay: { source: string; atMs: number; positionMs: number; cancelled: boolean } | null;
}

export const useTimelineStore = create<TimelineState>(() => ({
  info: null,
  loaded: null,
  openIssues: null,
  stepped: null,
  replay: null,
}));

const sessions = replyChannel<SessionData>();
const comparisons = replyChannel<ComparisonReply>();
let loadingSource = 'link';

export function receiveTimelineMessage(
  message: Extract<
    WorkerToPage,
    { type: 'timeline' | 'steppedTo' | 'session' | 'sessionLoaded' | 'comparison' | 'replay' }
  >,
): void {
  switch (message.type) {
    case 'timeline':
      useTimelineStore.setState({ info: message.timeline });
      return;
    case 'steppedTo': {
      const { type: _type, ...stepped } = message;
      useTimelineStore.setState({ stepped });
      return;
    }
    case 'session':
      sessions.settle(message.id, message.session);
      return;
    case 'sessionLoaded':
      // The worker pauses on the opened moment, so that it can be looked at.
      usePlaybackStore.setState({ playing: false });
      useTimelineStore.setState({
        loaded: { check: message.check, refused: message.refused, source: loadingSource },
        openIssues: null,
        replay: null,
      });
      return;
    case 'replay':
      useTimelineStore.setState({
        replay: {
          source: loadingSource,
          atMs: message.atMs,
          positionMs: message.positionMs,
          cancelled: message.state === 'cancelled',
        },
      });
      return;
    case 'comparison': {
      const { type: _type, id, ...reply } = message;
      comparisons.settle(id, reply);
      return;
    }
  }
}

/** The session at the current position (for Copy link and Export). */
export function requestSession(): Promise<SessionData> {
  return sessions.request((id) => send({ type: 'getSession', id }));
}

export function requestComparison(experimentId: string, topic: string): Promise<ComparisonReply> {
  return comparisons.request((id) => send({ type: 'compare', id, experimentId, topic }));
}

/** The source of a session the page reopens after the worker failed (no "Opened from" status). */
export const RESTART_SOURCE = 'the last save point';

/** Opens a decoded session; `source` names where it came from ("link", a file name, RESTART_SOURCE). */
export function openSession(session: SessionData, source: string): void {
  loadingSource = source;
  useTimelineStore.setState({ replay: null });
  send({ type: 'loadSession', session });
}

/** Stops the replay of a link or file under way: the running session stays. */
export function cancelReplay(): void {
  send({ type: 'cancelReplay' });
}

export function dismissReplay(): void {
  useTimelineStore.setState({ replay: null });
}

/** An error from the worker ends a replay under way (the engine failed on it). */
export function endReplay(): void {
  if (useTimelineStore.getState().replay?.cancelled === false) useTimelineStore.setState({ replay: null });
}

/** What a link or file that cannot be opened leaves running, when a session was already running. */
export const SESSION_KEPT = 'the running session is kept';

/** Shows the problems of a link or file that could not be opened, and what runs instead. */
export function reportOpenIssues(source: string, issues: ScenarioIssue[], outcome = SESSION_KEPT): void {
  useTimelineStore.setState({ openIssues: { source, issues, outcome } });
}

export function dismissOpenIssues(): void {
  useTimelineStore.setState({ openIssues: null });
}

export const seek = (timeMs: number) => send({ type: 'seek', timeMs } satisfies PageToWorker);
export const stepEvent = (direction: 'forward' | 'back') => send({ type: 'stepEvent', direction });
export const switchBranch = (branchId: number) => send({ type: 'switchBranch', branchId });
