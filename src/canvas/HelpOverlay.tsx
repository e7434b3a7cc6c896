// The "?" overlay: every keyboard shortcut of the canvas.
import { useEffect, useRef } from 'react';
import { showOrientation } from '../store/orientation';

const SHORTCUTS: [string, string][] = [
  ['Tab / Shift+Tab', 'move between nodes and buttons'],
  ['Enter or Space', 'select the focused node (shows its buttons)'],
  ['C', 'crash the focused node'],
  ['R', 'restart the focused node'],
  ['S', 'controlled shutdown of the focused node'],
  ['I', 'isolate the focused node from the rest of the cluster'],
  ['F', 'fit the cluster to the screen'],
  ['?', 'show or hide this help'],
  ['Escape', 'close this help, clear the selection'],
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
      <dl>
        {SHORTCUTS.map(([keys, what]) => (
          <div key={keys}>
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
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
