// The producer's choice of partition for a record with a key: murmur2 of the key's UTF-8 bytes,
// made positive, modulo the topic's partition count (all partitions, available or not).
// Source: apache/kafka clients/.../producer/internals/BuiltInPartitioner.java and common/utils/Utils.java

/** The partition Kafka's producer picks for a non-null String key (StringSerializer, UTF-8). */
export function partitionForKey(key: string, numPartitions: number): number {
  // BuiltInPartitioner#partitionForKey
  return toPositive(murmur2(utf8(key))) % numPartitions;
}

/** Kafka's 32-bit murmur2 (seed 0x9747b28c), as a signed int like Java's. */
export function murmur2(data: Uint8Array): number {
  // Utils#murmur2
  const m = 0x5bd1e995;
  const r = 24;
  const length = data.length;
  let h = 0x9747b28c ^ length;
  const tail = length & ~3;
  for (let i = 0; i < tail; i += 4) {
    let k = data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24);
    k = Math.imul(k, m);
    k ^= k >>> r;
    k = Math.imul(k, m);
    h = Math.imul(h, m) ^ k;
  }
  const rest = length & 3;
  // Java's switch falls through from case 3 to case 1.
  if (rest === 3) h ^= data[tail + 2] << 16;
  if (rest >= 2) h ^= data[tail + 1] << 8;
  if (rest >= 1) h = Math.imul(h ^ data[tail], m);
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

/**
 * The bytes of `String.getBytes(UTF_8)`. Unlike TextEncoder (U+FFFD, three bytes), Java writes a
 * lone surrogate as '?', so this is hand-written.
 */
export function utf8(s: string): Uint8Array {
  // java.lang.String#getBytes(Charset) with UTF_8
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) {
      const low = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (c > 0xdbff || low < 0xdc00 || low > 0xdfff) {
        out.push(0x3f);
        continue;
      }
      c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
      i++;
    }
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  }
  return Uint8Array.from(out);
}
