import { describe, expect, it } from 'vitest';
import { javaHashMapOrder, javaStringHashCode } from './javaHash';

// Expected values printed by Java 17 (String.hashCode, HashMap<Optional<String>, _>.keySet()).
const optionalHash = (rack: string | null) => (rack === null ? 0 : javaStringHashCode(rack));

describe("Java's String.hashCode", () => {
  it.each([
    ['', 0],
    ['a', 97],
    ['hello', 99162322],
    ['Aa', 2112],
    ['BB', 2112],
    ['my-group', -1906497762],
    ['polygenelubricants', -2147483648],
    ['\u{1F600}', 1772899],
  ])('hashes %j to %i, over UTF-16 code units in 32-bit ints', (s, hash) => {
    expect(javaStringHashCode(s)).toBe(hash);
  });
});

describe('iterating a java.util.HashMap of racks', () => {
  it('visits buckets in order, not names in order or in insertion order', () => {
    expect(javaHashMapOrder(['b', 'a'], optionalHash)).toEqual(['a', 'b']);
    expect(javaHashMapOrder(['rack-10', 'rack-2', 'rack-1'], optionalHash)).toEqual([
      'rack-2',
      'rack-10',
      'rack-1',
    ]);
    expect(javaHashMapOrder(['us-east-1c', 'us-east-1b', 'us-east-1a', 'eu-west-1a'], optionalHash)).toEqual([
      'us-east-1a',
      'us-east-1b',
      'us-east-1c',
      'eu-west-1a',
    ]);
  });

  it('keeps insertion order inside one bucket ("Aa" and "BB" share a hash)', () => {
    expect(javaHashMapOrder(['Aa', 'BB', 'a', 'Q'], optionalHash)).toEqual(['Aa', 'BB', 'a', 'Q']);
    expect(javaHashMapOrder(['BB', 'Aa', 'Q', 'a'], optionalHash)).toEqual(['BB', 'Aa', 'Q', 'a']);
  });

  it('puts "no rack" (Optional.empty(), hash 0) in bucket 0', () => {
    expect(javaHashMapOrder(['z', null, 'a'], optionalHash)).toEqual([null, 'a', 'z']);
  });

  it('grows the table from 16 to 32 buckets past 12 racks, which reorders them', () => {
    const racks = Array.from({ length: 14 }, (_, i) => `r${i + 1}`);
    expect(javaHashMapOrder(racks, optionalHash)).toEqual([
      'r2',
      'r3',
      'r4',
      'r5',
      'r6',
      'r7',
      'r8',
      'r9',
      'r10',
      'r12',
      'r11',
      'r14',
      'r13',
      'r1',
    ]);
  });
});
