import { describe, expect, it } from 'vitest';
import { seedRng } from './rng';
import { METADATA_TOPIC_ID, randomUuid, uuidHashCode, uuidToString, uuidWords } from './uuid';

describe("Kafka's Uuid", () => {
  it('prints the metadata topic id as Kafka does', () => {
    // Uuid.METADATA_TOPIC_ID.toString() in Kafka.
    expect(METADATA_TOPIC_ID).toBe('AAAAAAAAAAAAAAAAAAAAAQ');
    expect(uuidToString([0, 0, 0, 0])).toBe('AAAAAAAAAAAAAAAAAAAAAA');
  });

  it('round-trips through its text and hashes as Uuid.hashCode does', () => {
    const s = seedRng(42);
    for (let i = 0; i < 200; i++) {
      const id = randomUuid(s);
      expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
      expect(uuidToString(uuidWords(id))).toBe(id);
    }
    // new Uuid(1L << 32, 5L).hashCode() = (int)((1L<<32 ^ 5) >> 32) ^ (int)(1L<<32 ^ 5) = 1 ^ 5.
    expect(uuidHashCode(uuidToString([1, 0, 0, 5]))).toBe(4);
  });

  it('draws version-4 ids, the same for the same seed', () => {
    const a = randomUuid(seedRng(7));
    expect(randomUuid(seedRng(7))).toBe(a);
    const [, midHi, lo] = uuidWords(a);
    expect((midHi >>> 12) & 0xf).toBe(4);
    expect(lo >>> 30).toBe(2);
  });
});
