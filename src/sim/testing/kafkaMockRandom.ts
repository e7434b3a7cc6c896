// Kafka's test RNG, so that our tests can replay the vectors of Kafka's own tests.
// Source: apache/kafka server-common/src/test/java/org/apache/kafka/server/util/MockRandom.java

import type { IntSource } from '../kernel/rng';

const MULTIPLIER = 2862933555777941757n;
const INCREMENT = 3037000493n;

/** `new MockRandom(seed)` (17 by default) behind `java.util.Random.nextInt(bound)`. */
export function kafkaMockRandom(seed: bigint | number = 17): IntSource {
  let state = BigInt.asIntN(64, BigInt(seed));

  // MockRandom#next: a 64-bit LCG whose top `bits` bits are the output.
  const next = (bits: number): number => {
    state = BigInt.asIntN(64, state * MULTIPLIER + INCREMENT);
    return Number(BigInt.asIntN(32, BigInt.asUintN(64, state) >> BigInt(64 - bits)));
  };

  return {
    // java.util.Random#nextInt(int): power-of-two bounds take the high bits; others reject the
    // draws that would bias the modulo (the int overflow of `u - r + m` marks them).
    nextInt(bound: number): number {
      if (!Number.isInteger(bound) || bound <= 0 || bound > 0x7fffffff) {
        throw new RangeError(`bound must be a positive int, got ${bound}`);
      }
      let r = next(31);
      const m = bound - 1;
      if ((bound & m) === 0) return Math.floor((bound * r) / 2 ** 31);
      for (let u = r; ((u - (r = u % bound) + m) | 0) < 0; u = next(31));
      return r;
    },
  };
}
