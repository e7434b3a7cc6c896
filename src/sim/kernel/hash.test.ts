// stateHash in pieces: the same hash as the whole serialisation, and no limit from V8's longest string.
import { describe, expect, it } from 'vitest';
import { hashValue } from './hash';

/** The hash as it was computed in one piece: cyrb53 over JSON.stringify with the same replacer. */
function wholeHash(value: unknown): string {
  const text = JSON.stringify(value, (_k, v: unknown) =>
    v instanceof Map
      ? { m: [...v.entries()] }
      : v instanceof Set
        ? { s: [...v.values()] }
        : v === Infinity
          ? 'Inf'
          : v === -Infinity
            ? '-Inf'
            : v,
  );
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

describe('the state hash', () => {
  it('is the hash of the whole serialisation, whatever the value holds', () => {
    const deep = { a: { b: { c: { d: { e: { f: { g: [1, { h: new Map([[1, new Set(['x'])]]) }] } } } } } } };
    const values: unknown[] = [
      { nodes: new Map([[1, { id: 1, roles: ['broker'], rack: undefined, lag: Infinity }]]), seq: 7 },
      [1, undefined, () => 0, null, -0, NaN, -Infinity, 'é"\\\n\u2028'],
      { skip: undefined, fn: () => 1, keep: 0, nested: [new Set([3, 1, 2]), new Map()] },
      deep,
      42,
      null,
    ];
    for (const v of values) expect(hashValue(v)).toBe(wholeHash(v));
  });

  it('hashes a value whose serialisation is longer than any string V8 can hold', () => {
    const piece = 'x'.repeat(1 << 20);
    // 520 entries of a million characters: 545 million characters of text, past V8's 2^29-character limit.
    const big = new Map(Array.from({ length: 520 }, (_, i) => [i, { piece }]));
    expect(() => JSON.stringify([...big.values()])).toThrow(RangeError);
    expect(hashValue({ big })).toMatch(/^[0-9a-f]{14}$/);
  }, 60_000);
});
