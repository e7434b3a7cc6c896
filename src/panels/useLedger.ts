// Keeps a view of the ledger entries matching a query, refreshed as the simulation moves on.
import { useEffect, useRef, useState } from 'react';
import { requestLedger } from '../store/connection';
import type { LedgerQuery, LedgerReply } from '../store/panels';
import { useSimulationStore } from '../store/simulation';

/** Wall-clock milliseconds between two requests at most, whatever the snapshot rate. */
const REFRESH_MS = 250;

/** The latest ledger entries matching `query` (null: none wanted), refreshed with the snapshots. */
export function useLedger(query: LedgerQuery | null): { reply: LedgerReply | null; refresh: () => void } {
  const [reply, setReply] = useState<LedgerReply | null>(null);
  const timeMs = useSimulationStore((state) => state.snapshot?.timeMs ?? -1);
  const run = useSimulationStore((state) => state.run);
  const key = query === null ? null : JSON.stringify(query);
  const keyRef = useRef(key);
  const inFlight = useRef(false);
  const askAgain = useRef(false);
  const lastAt = useRef(-Infinity);
  const [nudge, setNudge] = useState(0);

  useEffect(() => {
    keyRef.current = key;
    setReply(null);
    lastAt.current = -Infinity;
    return () => {
      keyRef.current = null;
    };
  }, [key, run]);

  useEffect(() => {
    if (key === null) return;
    if (inFlight.current) {
      askAgain.current = true;
      return;
    }
    const ask = () => {
      inFlight.current = true;
      lastAt.current = performance.now();
      void requestLedger(JSON.parse(key) as LedgerQuery).then((answer) => {
        inFlight.current = false;
        if (keyRef.current === key) setReply(answer);
        if (askAgain.current) {
          askAgain.current = false;
          setNudge((n) => n + 1);
        }
      });
    };
    const wait = lastAt.current + REFRESH_MS - performance.now();
    if (wait <= 0) {
      ask();
      return;
    }
    const timer = setTimeout(ask, wait);
    return () => clearTimeout(timer);
  }, [key, timeMs, run, nudge]);

  return {
    reply,
    refresh: () => {
      lastAt.current = -Infinity;
      setNudge((n) => n + 1);
    },
  };
}
