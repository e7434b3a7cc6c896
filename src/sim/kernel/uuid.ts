// Kafka's topic ids (org.apache.kafka.common.Uuid): 128 bits shown as 22 characters of URL-safe
// base64 without padding. Kafka draws them from java.util.UUID.randomUUID (a version-4 UUID) and
// redraws one in its reserved set (ZERO_UUID, ONE_UUID = METADATA_TOPIC_ID) or whose text starts
// with '-' (Uuid.randomUuid). The simulator draws them from a seeded stream of its own
// (World.idRng), so the same scenario gives the same ids and an id never shifts the draws that
// placement and faults make.

import type { RngState } from '../model/rngState';
import { nextUint32 } from './rng';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The id of the metadata topic, __cluster_metadata (Uuid.METADATA_TOPIC_ID, new Uuid(0, 1)). */
export const METADATA_TOPIC_ID = uuidToString([0, 0, 0, 1]);

/** Uuid.toString: the 16 bytes, most significant first, in URL-safe base64 without padding. */
export function uuidToString(words: readonly [number, number, number, number]): string {
  const bytes: number[] = [];
  for (const w of words) bytes.push((w >>> 24) & 255, (w >>> 16) & 255, (w >>> 8) & 255, w & 255);
  let out = '';
  for (let i = 0; i < 16; i += 3) {
    const n = (bytes[i] ?? 0) * 65536 + (bytes[i + 1] ?? 0) * 256 + (bytes[i + 2] ?? 0);
    out += BASE64URL.charAt((n >>> 18) & 63) + BASE64URL.charAt((n >>> 12) & 63);
    if (i + 1 < 16) out += BASE64URL.charAt((n >>> 6) & 63);
    if (i + 2 < 16) out += BASE64URL.charAt(n & 63);
  }
  return out;
}

/** Uuid.randomUuid on the simulator's id stream. */
export function randomUuid(s: RngState): string {
  for (;;) {
    const hi = nextUint32(s);
    // java.util.UUID.randomUUID: version 4 in bits 12-15 of the most significant long's low
    // half, the IETF variant (10) in the top bits of the least significant long.
    const midHi = ((nextUint32(s) & 0xffff0fff) | 0x00004000) >>> 0;
    const lo = ((nextUint32(s) & 0x3fffffff) | 0x80000000) >>> 0;
    const loLo = nextUint32(s);
    const text = uuidToString([hi, midHi, lo, loLo]);
    if (!text.startsWith('-')) return text;
  }
}

/** Decodes Uuid.toString's text into its four 32-bit words, most significant first. */
export function uuidWords(text: string): [number, number, number, number] {
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const ch of text) {
    acc = (acc << 6) | BASE64URL.indexOf(ch);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((acc >>> bits) & 255);
    }
  }
  const word = (i: number) =>
    (((bytes[i] ?? 0) << 24) |
      ((bytes[i + 1] ?? 0) << 16) |
      ((bytes[i + 2] ?? 0) << 8) |
      (bytes[i + 3] ?? 0)) >>>
    0;
  return [word(0), word(4), word(8), word(12)];
}

/**
 * Uuid.hashCode: `h = mostSignificantBits ^ leastSignificantBits; (int) (h >> 32) ^ (int) h`, the
 * value that orders topic ids in Kafka's HashMaps and HashSets.
 */
export function uuidHashCode(text: string): number {
  const [a, b, c, d] = uuidWords(text);
  return (a ^ c ^ (b ^ d)) | 0;
}
