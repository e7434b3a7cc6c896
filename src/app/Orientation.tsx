// A short orientation for a first visit, at the top of the side column so it covers no part of
// the cluster: what the shapes mean, what to try first, where the lessons are. Escape or
// "Got it" closes it for good; the help (?) opens it again.
import { useEffect, useRef } from 'react';
import { ReplicaGlyph } from '../canvas/glyphs';
import { dismissOrientation, useOrientationStore } from '../store/orientation';
import './orientation.css';

export function Orientation() {
  const open = useOrientationStore((s) => s.open);
  const focus = useOrientationStore((s) => s.focus);
  const box = useRef<HTMLElement>(null);
  const returnTo = useRef<Element | null>(null);

  useEffect(() => {
    if (!open) return;
    // Opened from the help: take the focus, and give it back on closing. A first-visit one
    // leaves the focus where it is, so the page's own Tab order is unchanged.
    if (focus) {
      returnTo.current = document.activeElement;
      box.current?.focus();
    }
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if ((event.target as Element | null)?.closest?.('[role="dialog"]:not(.orientation)')) return;
      dismissOrientation();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      const back = returnTo.current as HTMLElement | null;
      returnTo.current = null;
      if (back?.isConnected) back.focus();
    };
  }, [open, focus]);

  if (!open) return null;
  return (
    <section
      ref={box}
      className="orientation"
      role="dialog"
      aria-modal="false"
      aria-labelledby="orientation-title"
      tabIndex={-1}
    >
      <h2 id="orientation-title">New here? This is a live Kafka cluster to break</h2>
      <ul>
        <li>
          <strong>Shapes:</strong> dashed boxes are zones, double borders KRaft controllers, single ones
          brokers; chips are replicas (<ReplicaGlyph role="leader" /> leader, <ReplicaGlyph role="insync" />{' '}
          in sync; the <em>Legend</em> has all).
        </li>
        <li>
          <strong>First seconds:</strong> brokers are <em>FENCED</em> until they register (BrokerRegistration)
          and catch up on metadata.
        </li>
        <li>
          <strong>Try:</strong> select a broker with a ★, press <kbd>C</kbd> to crash it, watch new leaders
          elected.
        </li>
        <li>
          <strong>Lessons:</strong> the <em>Lessons</em> button in the header; <kbd>?</kbd> lists the keys.
        </li>
      </ul>
      <button type="button" onClick={dismissOrientation}>
        Got it
      </button>{' '}
      <span className="orientation-hint">
        (Escape closes it too; <kbd>?</kbd> shows it again)
      </span>
    </section>
  );
}
