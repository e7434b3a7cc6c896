// The page: a header (title, cluster health, theme), the live canvas, and the side panels.
// The canvas (React Flow) loads as its own chunk, so the page's first script stays small.
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { LiveRegion } from '../canvas';
import { HealthBar, SidePanels } from '../panels';
import { PlaybackControls } from '../panels/PlaybackControls';
import { useSimulationStore } from '../store/simulation';
import { useThemeStore, type ThemeChoice } from '../store/theme';

const ClusterCanvas = lazy(() => import('../canvas/ClusterCanvas'));

const NEXT_THEME: Record<ThemeChoice, ThemeChoice> = { system: 'light', light: 'dark', dark: 'system' };

function ThemeToggle() {
  const choice = useThemeStore((s) => s.choice);
  const setChoice = useThemeStore((s) => s.setChoice);
  useEffect(() => {
    const root = document.documentElement;
    if (choice === 'system') delete root.dataset.theme;
    else root.dataset.theme = choice;
  }, [choice]);
  return (
    <button
      type="button"
      className="theme-toggle"
      onClick={() => setChoice(NEXT_THEME[choice])}
      aria-label={`Theme: ${choice}. Switch to ${NEXT_THEME[choice]}`}
    >
      <span aria-hidden="true">{choice === 'dark' ? '☾' : choice === 'light' ? '☀' : '◐'}</span> {choice}
    </button>
  );
}

function ErrorBanner() {
  const error = useSimulationStore((state) => state.error);
  if (!error) return null;
  return (
    <div role="alert" className="error">
      <p>{error.message}</p>
      <button
        type="button"
        className="error-dismiss"
        onClick={() => useSimulationStore.setState({ error: null })}
      >
        Dismiss
      </button>
      {error.issues && (
        <ul>
          {error.issues.map((issue) => (
            <li key={`${issue.path}: ${issue.message}`}>
              <code>{issue.path}</code>: {issue.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * `dock`: what sits under the canvas (the time-travel dock), in the canvas's column; `beside`: a
 * column between the canvas and the side panels that the canvas yields to (the lesson dock);
 * `headerEnd`: what closes the header, after the theme toggle (the lesson toggle); `notices`: under
 * the header (what the address asked for that does not exist); `sideStart`: above the side panels
 * (the first-run orientation).
 */
export function App({
  dock,
  beside,
  headerEnd,
  notices,
  sideStart,
}: {
  dock?: ReactNode;
  beside?: ReactNode;
  headerEnd?: ReactNode;
  notices?: ReactNode;
  sideStart?: ReactNode;
}) {
  return (
    <div className="page">
      <header className="page-header">
        <h1>Kafka Cluster Lab</h1>
        {/* Always in view: a demo is paced from here, whichever side tab is open. */}
        <PlaybackControls />
        <HealthBar />
        <ThemeToggle />
        {headerEnd}
      </header>
      <ErrorBanner />
      {notices}
      <main className="page-main">
        <div className="canvas-column">
          <section className="canvas-area" aria-label="Cluster">
            <Suspense fallback={<p className="canvas-loading">Drawing the cluster…</p>}>
              <ClusterCanvas />
            </Suspense>
          </section>
          {dock}
        </div>
        {beside}
        <aside className="side" aria-label="Panels">
          {sideStart}
          <SidePanels />
        </aside>
      </main>
      <LiveRegion />
    </div>
  );
}
