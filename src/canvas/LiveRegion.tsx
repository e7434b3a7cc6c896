// The page's aria-live region: elections, fencing and errors, read out as they happen, at most
// about once a second so a fast run does not flood a screen reader.
import { useEffect, useRef } from 'react';
import { announcementFor } from '../store/canvas';
import { useAnnouncementStore } from '../store/announcements';
import { useSimulationStore } from '../store/simulation';

const FLUSH_MS = 1000;

export function LiveRegion() {
  const text = useAnnouncementStore((s) => s.text);
  const seq = useAnnouncementStore((s) => s.seq);
  const pending = useRef<{ type: string; message: string }[]>([]);

  useEffect(() => {
    let lastSeq = Infinity;
    let lastRun = -1;
    const unsubscribe = useSimulationStore.subscribe((state) => {
      if (state.run !== lastRun) {
        // A new run: announce only what happens from now on.
        lastRun = state.run;
        lastSeq = state.events.at(-1)?.seq ?? -1;
        return;
      }
      for (const event of state.events) if (event.seq > lastSeq) pending.current.push(event);
      lastSeq = state.events.at(-1)?.seq ?? lastSeq;
    });
    const timer = setInterval(() => {
      const sentence = announcementFor(pending.current);
      pending.current = [];
      if (sentence) useAnnouncementStore.getState().announce(sentence);
    }, FLUSH_MS);
    return () => {
      unsubscribe();
      clearInterval(timer);
    };
  }, []);

  return (
    <div className="visually-hidden" aria-live="polite" aria-atomic="true" data-seq={seq}>
      {text}
    </div>
  );
}
