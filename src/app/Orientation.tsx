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
      <h2 id="orientation-title">New here? A live Kafka cluster you can break</h2>
      <ul>
        <li>
          <strong>Shapes.</strong> Dashed boxes are zones (racks); a double border is a KRaft controller, a
          single one a broker. On a broker, each chip is a partition replica: <ReplicaGlyph role="leader" />{' '}
          leader, <ReplicaGlyph role="insync" /> in-sync follower, <ReplicaGlyph role="outofsync" /> out of
          sync (the <em>Legend</em> lists them all).
        </li>
        <li>
          <strong>First seconds.</strong> Brokers start <em>FENCED</em>: each registers with the controller
          (BrokerRegistration) and is unfenced once it has caught up on the metadata log.
        </li>
        <li>
          <strong>Try first.</strong> Select a broker with a ★ and press <kbd>C</kbd> (or Crash): it is fenced
          after 9 s without heartbeats and its partitions elect new leaders.
        </li>
        <li>
          <strong>Lessons.</strong> Guided lessons are under <em>Lessons</em> in the header; <kbd>?</kbd>{' '}
          lists the keys.
        </li>
      </ul>
      <button type="button" onClick={dismissOrientation}>
        Got it
      </button>{' '}
      <span className="orientation-hint">
        (or Escape; the help <kbd>?</kbd> shows this again)
      </span>
    </section>
  );
}
