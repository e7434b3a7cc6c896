// stateHash: a short hash of the whole model. Equal runs give equal hashes, in Node and browsers.

import type { World } from '../model/world';

/** cyrb53: a fast 53-bit string hash, shown as 14 hex digits. */
function cyrb53(str: string, seed = 0): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < str.length; i++) {
    const ch = str.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

/** Maps and Sets become sorted-insertion arrays so the serialisation is canonical. */
function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Map) return { m: [...value.entries()] };
  if (value instanceof Set) return { s: [...value.values()] };
  if (value === Infinity) return 'Inf';
  if (value === -Infinity) return '-Inf';
  return value;
}

export function hashWorld(w: World): string {
  // The metrics ring and the record and message trails are derived from the rest (and large): they
  // are left out, like the event log's content (its count is in: every event logged, kept or not)
  // and the memory bounds' bookkeeping (kernel/memoryBounds.ts), so a bound reached changes no hash
  // but by what it drops from the ledger.
  const {
    queue,
    events: _events,
    eventsDropped: _dropped,
    ledgerFailed: _failed,
    memoryLimits: _limits,
    metrics: _metrics,
    trail: _trail,
    messageTrail: _messages,
    ...rest
  } = w;
  const state = JSON.stringify({ ...rest, queue: queue.sorted(), eventCount: w.eventSeq }, replacer);
  return cyrb53(state);
}

/** A hash of any plain value (Maps and Sets included), as stateHash hashes the world. */
export function hashValue(value: unknown): string {
  return typeof value === 'string' ? cyrb53(value) : cyrb53(JSON.stringify(value, replacer));
}
