import { describe, expect, it } from 'vitest';
import { kafkaMockRandom } from './kafkaMockRandom';

// Printed by Kafka's MockRandom (server-common test utils) under Java 17.
describe("kafkaMockRandom: Kafka's MockRandom behind java.util.Random.nextInt", () => {
  it('starts from seed 17 like new MockRandom()', () => {
    const random = kafkaMockRandom();
    expect([5, 7, 16, 1000000, 3, 2147483647].map((bound) => random.nextInt(bound))).toEqual([
      0, 2, 2, 75447, 0, 1753832080,
    ]);
  });

  it('takes any 64-bit seed', () => {
    const random = kafkaMockRandom(0);
    expect([10, 10, 10].map((bound) => random.nextInt(bound))).toEqual([0, 2, 7]);
  });
});
