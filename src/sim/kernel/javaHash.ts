// Java's String.hashCode and java.util.HashMap iteration order. Kafka sometimes walks a HashMap
// and draws a random number per entry, so the order of the draws depends on these.

/** `String.hashCode()`: 31-polynomial over UTF-16 code units, in 32-bit int arithmetic. */
export function javaStringHashCode(s: string): number {
  // java.lang.String#hashCode
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}

const INITIAL_CAPACITY = 16;
const LOAD_FACTOR = 0.75;
const TREEIFY_THRESHOLD = 8;
const MIN_TREEIFY_CAPACITY = 64;

/**
 * The order in which `new HashMap<>()` iterates distinct keys put in `keys` order: by bucket
 * `spread(hash) & (capacity - 1)`, then by insertion within a bucket.
 *
 * Capacity follows Java exactly (16, doubling past 0.75 load, and doubling instead of treeifying a
 * bin of 8+ while the table is under 64). Not reproduced: the order inside a treeified bin (9+ keys
 * in one bucket of a 64+ table); such a bin is taken in insertion order.
 */
export function javaHashMapOrder<K>(keys: readonly K[], hashCode: (key: K) => number): K[] {
  // java.util.HashMap#putVal, #resize, #treeifyBin
  let capacity = INITIAL_CAPACITY;
  const entries: { key: K; hash: number }[] = [];
  for (const key of keys) {
    const h = hashCode(key);
    const hash = h ^ (h >>> 16);
    const bucket = hash & (capacity - 1);
    const binSize = entries.filter((e) => (e.hash & (capacity - 1)) === bucket).length;
    entries.push({ key, hash });
    if (binSize >= TREEIFY_THRESHOLD && capacity < MIN_TREEIFY_CAPACITY) capacity *= 2;
    if (entries.length > capacity * LOAD_FACTOR) capacity *= 2;
  }
  const mask = capacity - 1;
  // Array.prototype.sort is stable, so ties keep insertion order.
  return entries.sort((a, b) => (a.hash & mask) - (b.hash & mask)).map((e) => e.key);
}
