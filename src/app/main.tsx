import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { connectWorker, send, sendCommand } from '../store/connection';
import type { Command, Scenario } from '../sim/types';
import { usePlaybackStore } from '../store/playback';
import { useSimulationStore } from '../store/simulation';
import { connectFileDecoder } from '../store/fileDecoder';
import { fileDecoderClient } from '../worker/fileDecoder';
import type { PageToWorker, WorkerToPage } from '../worker/protocol';
import { App } from './App';
import { decodeSession, sessionPayloadOf } from '../scenario/session';
import { LessonToggles, lessons, parseViewMode } from '../lessons';
import { openSession, reportOpenIssues, RESTART_SOURCE } from '../store/timeline';
import { useLessonStore, startLesson } from '../lessons/lessonStore';
import { virtualTime } from '../panels/timeline/ReplayBanner';
import { superviseWorker } from './workerSupervisor';
import { installKeys } from './keys';
import { LessonColumn, TimeSlot } from './TimeAndLessons';
import { presets } from '../scenario/presets';
import { showOrientationOnFirstVisit } from '../store/orientation';
import { Orientation } from './Orientation';
import { startedInstead, urlNotices } from './urlNotices';
import { UrlNotices } from './UrlNotices';
import './styles.css';

// Imported files are read and parsed in a worker of their own, started on the first import.
connectFileDecoder(
  fileDecoderClient(
    () =>
      new Worker(new URL('../worker/fileDecoder.worker.ts', import.meta.url), {
        type: 'module',
        name: 'file-decoder',
      }),
  ),
);

// ?preset=NAME starts the worker on a built-in preset (its name is the worker's name).
const params = new URLSearchParams(location.search);
// The worker is supervised: saved every few seconds, and restarted from that save point when it
// fails or hangs (src/app/workerSupervisor.ts).
const workerName = params.get('preset') ?? 'default';
let receive: (message: WorkerToPage) => void = () => {};
const supervisor = superviseWorker({
  create: () =>
    new Worker(new URL('../worker/worker.ts', import.meta.url), { type: 'module', name: workerName }),
  receive: (message) => receive(message),
  restarted: ({ reason, from }) => {
    usePlaybackStore.setState({ playing: false });
    const lesson = useLessonStore.getState();
    const at = from
      ? `the moment saved last, ${virtualTime(from.positionMs)} of simulated time`
      : 'the start';
    useSimulationStore.setState({
      error: {
        message:
          `The simulation stopped (${reason}). It was restarted from ${at}; ` +
          (lesson.lessonId
            ? `the lesson starts again at its step ${lesson.stepIndex + 1}.`
            : 'what happened after that moment was lost.'),
      },
    });
    if (lesson.lessonId) startLesson(lesson.lessonId, lesson.stepIndex);
    else if (from) openSession(from, RESTART_SOURCE);
    else openLinkInAddress(false);
  },
});
receive = connectWorker((message: PageToWorker) => supervisor.post(message));

// ?debug exposes a hook for the UI benchmark (scripts/bench-ui.ts): bytes the worker posts, speed.
if (params.has('debug'))
  Object.assign(window, {
    __kclDebug: {
      measure: (enabled: boolean) => usePlaybackStore.getState().measure(enabled),
      playback: () => {
        const { speed, achievedSpeed, snapshotBytesPerSecond } = usePlaybackStore.getState();
        return { speed, achievedSpeed, snapshotBytesPerSecond };
      },
      setSpeed: (speed: number) => usePlaybackStore.getState().setSpeed(speed),
      crashWorker: () => supervisor.crash(),
      // The speed cases of the benchmark: open a scene, break it, read the simulated clock.
      open: (scenario: Scenario) => send({ type: 'init', scenario }),
      command: (command: Command) => sendCommand(command),
      snapshot: () => useSimulationStore.getState().snapshot,
      speedNote: () => document.querySelector('.speed-note')?.textContent ?? null,
    },
  });

// A shared link (#s=...) opens its session; a bad one lists its problems and says what runs
// instead: on page load the cluster the worker started, later the session that was running.
const presetNames = Object.keys(presets);
function openLinkInAddress(onLoad: boolean): void {
  const payload = sessionPayloadOf(location.hash);
  if (payload === null) return;
  const decoded = decodeSession(payload);
  if (decoded.ok) openSession(decoded.session, 'link');
  else if (onLoad) reportOpenIssues('link', decoded.issues, startedInstead(location.search, presetNames));
  else reportOpenIssues('link', decoded.issues);
}
openLinkInAddress(true);
window.addEventListener('hashchange', () => openLinkInAddress(false));

// ?present (presenter mode), ?embed (an iframe on a course page), ?lesson=ID (start a lesson).
const viewMode = parseViewMode(location.search);
const notices = urlNotices(
  location.search,
  presetNames,
  lessons.map((l) => l.id),
);
showOrientationOnFirstVisit({
  embed: viewMode.embed,
  lesson: viewMode.lessonId !== null,
  link: sessionPayloadOf(location.hash) !== null,
});
// The page's keys (src/app/keys.ts), in and outside lessons; `?` lists them.
installKeys();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App
      dock={<TimeSlot />}
      beside={<LessonColumn mode={viewMode} />}
      headerEnd={<LessonToggles mode={viewMode} />}
      notices={<UrlNotices notices={notices} />}
      sideStart={<Orientation />}
    />
  </StrictMode>,
);
