// The "?" overlay: every key of the page, listed from the one keymap (src/store/keys.ts) that the
// key handler dispatches from, so the list cannot drift from what the keys do.
import { useEffect, useRef } from 'react';
import { showOrientation } from '../store/orientation';
import { KEYMAP, type KeyScope } from '../store/keys';

const GROUPS: { scope: KeyScope; title: string }[] = [
  { scope: 'anywhere', title: 'Anywhere' },
  { scope: 'lesson', title: 'In a lesson (a clicker moves the lesson)' },
  { scope: 'free', title: 'Outside a lesson (a clicker drives the clock)' },
  { scope: 'node', title: 'On the canvas' },
];

export function HelpOverlay({ onClose }: { onClose: () => void }) {
  const closeRef = useRef<HTMLButtonElement>(null);
  const returnTo = useRef<Element | null>(null);
  useEffect(() => {
    returnTo.current = document.activeElement;
    closeRef.current?.focus();
    return () => (returnTo.current as HTMLElement | null)?.focus?.();
  }, []);
  return (
    <div className="help" role="dialog" aria-modal="false" aria-labelledby="help-title">
      <h2 id="help-title">Keyboard shortcuts</h2>
      {GROUPS.map(({ scope, title }) => (
        <section key={scope} aria-label={title}>
          <h3>{title}</h3>
          <dl>
            {scope === 'node' && (
              <div>
                <dt>
                  <kbd>Tab / Shift+Tab</kbd>
                </dt>
                <dd>move between nodes and buttons</dd>
              </div>
            )}
            {KEYMAP.filter((b) => b.scope === scope).map((b) => (
              <div key={`${b.action}-${b.label}`}>
                <dt>
                  <kbd>{b.label}</kbd>
                </dt>
                <dd>{b.what}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
      <p className="help-note">
        Keys do nothing while you type in a field. Presenter mode is also a button in the lesson dock (
        <strong>Lessons</strong> in the header).
      </p>
      <button type="button" ref={closeRef} onClick={onClose}>
        Close
      </button>{' '}
      <button
        type="button"
        onClick={() => {
          onClose();
          showOrientation();
        }}
      >
        Show the orientation
      </button>
    </div>
  );
}
