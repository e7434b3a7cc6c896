// stateHash: a short hash of the whole model. Equal runs give equal hashes, in Node and browsers.

import type { World } from '../model/world';

/**
 * cyrb53: a fast 53-bit string hash, shown as 14 hex digits. Fed in pieces: the hash of the pieces
 * is the hash of their concatenation, so a world too large for one string (V8 caps a string at
 * about 2^29 characters: 200 brokers each holding the metadata image of 20,000 partitions pass
 * it) hashes as its whole serialisation would.
 */
class Cyrb53 {
  private h1: number;
  private h2: number;
  constructor(seed = 0) {
    this.h1 = 0xdeadbeef ^ seed;
    this.h2 = 0x41c6ce57 ^ seed;
  }
  update(str: string): void {
    let h1 = this.h1;
    let h2 = this.h2;
    for (let i = 0; i < str.length; i++) {
      const ch = str.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    this.h1 = h1;
    this.h2 = h2;
  }
  digest(): string {
    let h1 = this.h1;
    let h2 = this.h2;
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
  }
}

/** Maps and Sets become sorted-insertion arrays so the serialisation is canonical. */
function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Map) return { m: [...value.entries()] };
  if (value instanceof Set) return { s: [...value.values()] };
  if (value === Infinity) return 'Inf';
  if (value === -Infinity) return '-Inf';
  return value;
}

/** Containers this many levels down are written whole by JSON.stringify (each piece is small). */
const STREAM_DEPTH = 6;

/**
 * Feeds `sink` exactly the text of JSON.stringify(v, replacer) for a value `v` the replacer has
 * already seen (each value is replaced once, by its container), in pieces: the top
 * STREAM_DEPTH levels of objects, arrays, Maps and Sets are written here, what is below them by
 * JSON.stringify. Returns false for a value JSON leaves out (undefined, a function).
 */
function writeJson(v: unknown, sink: (s: string) => void, depth: number): boolean {
  if (
    depth <= 0 ||
    v === null ||
    typeof v !== 'object' ||
    typeof (v as { toJSON?: unknown }).toJSON === 'function'
  ) {
    const text = JSON.stringify(v, replacer);
    if (text === undefined) return false;
    sink(text);
    return true;
  }
  if (Array.isArray(v)) {
    sink('[');
    for (let i = 0; i < v.length; i++) {
      if (i > 0) sink(',');
      if (!writeJson(replacer(String(i), v[i]), sink, depth - 1)) sink('null');
    }
    sink(']');
    return true;
  }
  sink('{');
  let first = true;
  for (const k of Object.keys(v)) {
    const replaced = replacer(k, (v as Record<string, unknown>)[k]);
    if (replaced === undefined || typeof replaced === 'function' || typeof replaced === 'symbol') continue;
    sink(first ? `${JSON.stringify(k)}:` : `,${JSON.stringify(k)}:`);
    first = false;
    writeJson(replaced, sink, depth - 1);
  }
  sink('}');
  return true;
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
    ledgerAcks0: _acks0,
    memoryLimits: _limits,
    metrics: _metrics,
    trail: _trail,
    messageTrail: _messages,
    ...rest
  } = w;
  const h = new Cyrb53();
  writeJson({ ...rest, queue: queue.sorted(), eventCount: w.eventSeq }, (s) => h.update(s), STREAM_DEPTH);
  return h.digest();
}

/** A hash of any plain value (Maps and Sets included), as stateHash hashes the world. */
export function hashValue(value: unknown): string {
  const h = new Cyrb53();
  if (typeof value === 'string') h.update(value);
  else writeJson(replacer('', value), (s) => h.update(s), STREAM_DEPTH);
  return h.digest();
}
