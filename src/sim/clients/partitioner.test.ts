import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { murmur2, partitionForKey, toPositive, utf8 } from './partitioner';

const bytes = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
const hex = (data: Uint8Array) => Array.from(data, (b) => b.toString(16).padStart(2, '0')).join('');

describe("murmur2, the producer's key hash (Kafka's UtilsTest.testMurmur2)", () => {
  it.each([
    ['21', -973932308],
    ['foobar', -790332482],
    ['a-little-bit-long-string', -985981536],
    ['a-little-bit-longer-string', -1486304829],
    ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
    ['abc', 479470107],
  ])('hashes %j to %i', (key, hash) => {
    expect(murmur2(utf8(key))).toBe(hash);
  });

  it('hashes raw bytes too: 61 62 63 to 479470107', () => {
    expect(murmur2(bytes('616263'))).toBe(479470107);
  });

  // Printed by Kafka's Utils.murmur2 over Java's String.getBytes(UTF_8).
  it.each([
    ['the empty key ""', '', 275646681],
    ['a two-byte character', 'é', 186971271],
    ['an emoji (a surrogate pair, four bytes)', '\u{1F600}', 131881617],
    ['a lone surrogate, which Java encodes as "?"', '\uD800A', 846436693],
  ])('hashes %s like Kafka', (_, key, hash) => {
    expect(murmur2(utf8(key))).toBe(hash);
  });
});

describe('toPositive: clearing the sign bit, not Math.abs (Utils.toPositive)', () => {
  it.each([
    [-1, 2147483647],
    [-2147483648, 0],
    [-790332482, 1357151166],
    [0, 0],
    [10, 10],
  ])('maps %i to %i', (n, positive) => {
    expect(toPositive(n)).toBe(positive);
  });
});

describe("utf8: the key's bytes as Kafka's StringSerializer writes them", () => {
  it('writes one to four bytes a character', () => {
    expect(hex(utf8('a'))).toBe('61');
    expect(hex(utf8('é'))).toBe('c3a9');
    expect(hex(utf8('€'))).toBe('e282ac');
    expect(hex(utf8('\u{1F600}'))).toBe('f09f9880');
  });

  it('writes a lone surrogate as "?", as Java does, where TextEncoder would write U+FFFD', () => {
    expect(hex(utf8('\uD83D\uDE00\uD800A'))).toBe('f09f98803f41');
    expect(hex(utf8('\uDC00'))).toBe('3f');
  });

  it('agrees with TextEncoder on every well-formed string (fast-check seed 20251129)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => {
        expect(utf8(s)).toEqual(new TextEncoder().encode(s));
      }),
      { seed: 20251129, numRuns: 500 },
    );
  });
});

describe('partitionForKey: which partition a keyed record goes to (BuiltInPartitioner.partitionForKey)', () => {
  it('is toPositive(murmur2(key bytes)) modulo the partition count', () => {
    expect(partitionForKey('key1', 6)).toBe(2);
    expect(partitionForKey('foobar', 12)).toBe(6);
    expect(partitionForKey('21', 3)).toBe(0);
    expect(partitionForKey('', 50)).toBe(31);
  });

  it('sends the same key to the same partition, always within the topic (fast-check seed 20251129)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.integer({ min: 1, max: 1000 }), (key, partitions) => {
        const partition = partitionForKey(key, partitions);
        expect(partition).toBe(partitionForKey(key, partitions));
        expect(partition).toBeGreaterThanOrEqual(0);
        expect(partition).toBeLessThan(partitions);
      }),
      { seed: 20251129, numRuns: 500 },
    );
  });
});
