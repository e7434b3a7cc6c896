// The producer's choice of partition for a record with a key: murmur2 of the key's UTF-8 bytes,
// made positive, modulo the topic's partition count (all partitions, available or not).
// Source: apache/kafka clients/.../producer/internals/BuiltInPartitioner.java and common/utils/Utils.java

/** The partition Kafka's producer picks for a non-null String key (StringSerializer, UTF-8). */
export function partitionForKey(key: string, numPartitions: number): number {
  // BuiltInPartitioner#partitionForKey
  const length = writeUtf8(key);
  return toPositive(murmur2(scratch, length)) % numPartitions;
}

/** Kafka's 32-bit murmur2 (seed 0x9747b28c) of the first `length` bytes, as a signed int like Java's. */
export function murmur2(data: Uint8Array, length = data.length): number {
  // Utils#murmur2
  const m = 0x5bd1e995;
  const r = 24;
  let h = 0x9747b28c ^ length;
  const tail = length & ~3;
  for (let i = 0; i < tail; i += 4) {
    let k = data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    k = Math.imul(k, m);
    k ^= k >>> r;
    k = Math.imul(k, m);
    h = Math.imul(h, m) ^ k;
  }
  const rest = length & 3;
  // Java's switch falls through from case 3 to case 1.
  if (rest === 3) h ^= data[tail + 2]! << 16;
  if (rest >= 2) h ^= data[tail + 1]! << 8;
  if (rest >= 1) h = Math.imul(h ^ data[tail]!, m);
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h;
}

/** Clears the sign bit; not Math.abs (so -1 maps to 2147483647, not 1). */
export function toPositive(n: number): number {
  // Utils#toPositive
  return n & 0x7fffffff;
}

/** The bytes partitionForKey hashes: rewritten by every call (no array per record), grown as keys need. */
let scratch = new Uint8Array(256);

/**
 * The bytes of `String.getBytes(UTF_8)`. Unlike TextEncoder (U+FFFD, three bytes), Java writes a
 * lone surrogate as '?', so this is hand-written.
 */
export function utf8(s: string): Uint8Array {
  // java.lang.String#getBytes(Charset) with UTF_8
  // writeUtf8 may replace `scratch` with a larger buffer: read it only after the call.
  const length = writeUtf8(s);
  return scratch.slice(0, length);
}

/** Writes utf8(s) to the start of `scratch`; returns its length. */
function writeUtf8(s: string): number {
  // At most three bytes per UTF-16 unit (a surrogate pair, two units, makes four).
  if (scratch.length < 3 * s.length) scratch = new Uint8Array(3 * s.length);
  const out = scratch;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) {
      const low = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (c > 0xdbff || low < 0xdc00 || low > 0xdfff) {
        out[n++] = 0x3f;
        continue;
      }
      c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
      i++;
    }
    if (c < 0x80) out[n++] = c;
    else if (c < 0x800) {
      out[n++] = 0xc0 | (c >> 6);
      out[n++] = 0x80 | (c & 0x3f);
    } else if (c < 0x10000) {
      out[n++] = 0xe0 | (c >> 12);
      out[n++] = 0x80 | ((c >> 6) & 0x3f);
      out[n++] = 0x80 | (c & 0x3f);
    } else {
      out[n++] = 0xf0 | (c >> 18);
      out[n++] = 0x80 | ((c >> 12) & 0x3f);
      out[n++] = 0x80 | ((c >> 6) & 0x3f);
      out[n++] = 0x80 | (c & 0x3f);
    }
  }
  return n;
}
