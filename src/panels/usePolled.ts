// A worker query a panel asks again as the simulation moves on, at most every `refreshMs` of wall
// time, and at once when its key changes. The simulated clock is watched through the store's
// subscription rather than a selector, so the panel renders when an answer arrives (a few times a
// second), not at every snapshot (up to 60 a second): at 1000× the Messages tab and the Partition
// log otherwise redrew their whole diagram or grid for each snapshot.
import { useEffect, useRef, useState } from 'react';
import { useSimulationStore } from '../store/simulation';

export function usePolled<T>(key: string, ask: () => Promise<T>, refreshMs: number): T | null {
  const [answer, setAnswer] = useState<T | null>(null);
  const askRef = useRef(ask);
  askRef.current = ask;
  const poke = useRef<() => void>(() => {});

  useEffect(() => {
    let alive = true;
    let inFlight = false;
    let again = false;
    let lastAt = -Infinity;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = () => {
      timer = undefined;
      inFlight = true;
      lastAt = performance.now();
      void askRef.current().then((a) => {
        inFlight = false;
        if (!alive) return;
        setAnswer(a);
        if (again) {
          again = false;
          poke.current();
        }
      });
    };
    poke.current = () => {
      if (!alive) return;
      if (inFlight) {
        again = true;
        return;
      }
      if (timer !== undefined) return;
      const wait = lastAt + refreshMs - performance.now();
      if (wait <= 0) run();
      else timer = setTimeout(run, wait);
    };
    const unsubscribe = useSimulationStore.subscribe((s, previous) => {
      if (s.snapshot?.timeMs !== previous.snapshot?.timeMs) poke.current();
    });
    return () => {
      alive = false;
      unsubscribe();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [refreshMs]);

  // A new key (another window, filter or partition) asks at once, or as soon as the rate allows.
  useEffect(() => poke.current(), [key]);
  return answer;
}
