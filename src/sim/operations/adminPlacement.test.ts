import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import golden from './adminPlacement.golden.json';
import {
  AdminPlacementError,
  assignReplicasToBrokers,
  rackAlternatedBrokerList,
  type BrokerMetadata,
} from './adminPlacement';
import { intSource, seedRng, type IntSource } from '../kernel/rng';

/** An IntSource that fails the test if the assignment draws a random number. */
const noDraws: IntSource = {
  nextInt: () => {
    throw new Error('drew a random number with a fixed start index');
  },
};

/** An IntSource that answers the given numbers in turn and records the bounds asked. */
function scripted(...answers: number[]): IntSource & { bounds: number[] } {
  const bounds: number[] = [];
  return {
    bounds,
    nextInt(bound) {
      bounds.push(bound);
      const answer = answers.shift();
      if (answer === undefined) throw new Error('drew more numbers than scripted');
      return answer;
    },
  };
}

const withoutRacks = (...ids: number[]): BrokerMetadata[] => ids.map((id) => ({ id, rack: null }));
const withRacks = (rackOf: Record<number, string>): BrokerMetadata[] =>
  Object.entries(rackOf).map(([id, rack]) => ({ id: Number(id), rack }));

function refusal(attempt: () => unknown): AdminPlacementError {
  try {
    attempt();
  } catch (e) {
    if (e instanceof AdminPlacementError) return e;
    throw e;
  }
  throw new Error('the assignment was not refused');
}

describe('AdminUtils.assignReplicasToBrokers without racks (AdminRackAwareTest.testReplicaAssignment)', () => {
  it('assigns leaders round-robin from the start index, then shifts followers after each pass', () => {
    expect(assignReplicasToBrokers(withoutRacks(0, 1, 2, 3, 4), 10, 3, noDraws, 0, -1)).toEqual([
      [0, 1, 2],
      [1, 2, 3],
      [2, 3, 4],
      [3, 4, 0],
      [4, 0, 1],
      [0, 2, 3],
      [1, 3, 4],
      [2, 4, 0],
      [3, 0, 1],
      [4, 1, 2],
    ]);
  });

  it('takes brokers in the order given, not sorted', () => {
    expect(assignReplicasToBrokers(withoutRacks(3, 1, 2), 3, 2, noDraws, 0, 0)).toEqual([
      [3, 1],
      [1, 2],
      [2, 3],
    ]);
  });

  it('numbers partitions from startPartitionId, but shifts followers only past passes it makes itself', () => {
    // Partitions 6..9 of a 10-partition run from 0 would be [1,3,4] [2,4,0] [3,0,1] [4,1,2].
    expect(assignReplicasToBrokers(withoutRacks(0, 1, 2, 3, 4), 4, 3, noDraws, 0, 6)).toEqual([
      [1, 2, 3],
      [2, 3, 4],
      [3, 4, 0],
      [4, 0, 1],
    ]);
  });
});

describe('AdminUtils.assignReplicasToBrokers with racks (AdminRackAwareTest)', () => {
  const rackOf = { 0: 'rack1', 1: 'rack3', 2: 'rack3', 3: 'rack2', 4: 'rack2', 5: 'rack1' };

  it('alternates racks in the broker list: rack1, rack2, rack3, rack1, ...', () => {
    const map = (entries: Record<number, string>) =>
      new Map(Object.entries(entries).map(([id, r]) => [Number(id), r]));
    expect(rackAlternatedBrokerList(map(rackOf))).toEqual([0, 3, 1, 5, 4, 2]);
    const { 5: _, ...withoutFive } = rackOf;
    expect(rackAlternatedBrokerList(map(withoutFive))).toEqual([0, 3, 1, 4, 2]);
  });

  it('goes round-robin on that list, then shifts the followers for the seventh partition', () => {
    expect(assignReplicasToBrokers(withRacks(rackOf), 7, 3, noDraws, 0, 0)).toEqual([
      [0, 3, 1],
      [3, 1, 5],
      [1, 5, 4],
      [5, 4, 2],
      [4, 2, 0],
      [2, 0, 3],
      [0, 4, 2],
    ]);
  });

  it('skips a broker whose rack already has a replica while another rack has none (RF 4 on racks a, b, c)', () => {
    const assignment = assignReplicasToBrokers(
      withRacks({ 0: 'a', 1: 'b', 2: 'c', 3: 'a', 4: 'a' }),
      6,
      4,
      noDraws,
      2,
      -1,
    );
    for (const replicas of assignment) {
      expect(new Set(replicas).size).toBe(4);
      expect(new Set(replicas.map((id) => 'abcaa'[id]))).toEqual(new Set(['a', 'b', 'c']));
    }
  });
});

describe('AdminUtils.assignReplicasToBrokers as kafka-reassign-partitions --generate calls it', () => {
  it('draws the start index and then the follower shift, each below the broker count', () => {
    const random = scripted(2, 1);
    expect(assignReplicasToBrokers(withoutRacks(0, 1, 2, 3, 4), 3, 2, random)).toEqual([
      [2, 4],
      [3, 0],
      [4, 1],
    ]);
    expect(random.bounds).toEqual([5, 5]);
  });

  it('draws with the rack-alternated list when brokers have racks', () => {
    const random = scripted(0, 0);
    const rackOf = { 0: 'rack1', 1: 'rack3', 2: 'rack3', 3: 'rack2', 4: 'rack2', 5: 'rack1' };
    expect(assignReplicasToBrokers(withRacks(rackOf), 7, 3, random)).toEqual(
      assignReplicasToBrokers(withRacks(rackOf), 7, 3, noDraws, 0, 0),
    );
    expect(random.bounds).toEqual([6, 6]);
  });
});

describe('AdminUtils.assignReplicasToBrokers refusing (testAssignReplicasToBrokersWithInvalidParameters)', () => {
  const brokers: BrokerMetadata[] = [
    { id: 0, rack: 'rack1' },
    { id: 1, rack: 'rack3' },
    { id: 2, rack: 'rack3' },
    { id: 3, rack: 'rack2' },
    { id: 4, rack: null },
  ];

  it('refuses zero partitions before looking at the replication factor', () => {
    const error = refusal(() => assignReplicasToBrokers(brokers, 0, 0, noDraws));
    expect([error.exception, error.message]).toEqual([
      'InvalidPartitionsException',
      'Number of partitions must be larger than 0.',
    ]);
  });

  it('refuses a replication factor of 0 or above the broker count', () => {
    expect(refusal(() => assignReplicasToBrokers(brokers, 10, 0, noDraws)).message).toBe(
      'Replication factor must be larger than 0.',
    );
    const error = refusal(() => assignReplicasToBrokers(brokers, 10, 6, noDraws));
    expect([error.exception, error.message]).toEqual([
      'InvalidReplicationFactorException',
      'Replication factor: 6 larger than available brokers: 5.',
    ]);
  });

  it('refuses racks on some brokers but not all', () => {
    const error = refusal(() => assignReplicasToBrokers(brokers, 10, 5, noDraws));
    expect([error.exception, error.message]).toEqual([
      'AdminOperationException',
      'Not all brokers have rack information for replica rack aware assignment.',
    ]);
  });
});

describe("AdminUtils.assignReplicasToBrokers: recorded answers of Kafka's own code (adminPlacement.golden.json)", () => {
  it.each(golden.cases.map((c, i) => [i, c] as const))('case %i', (_, c) => {
    const brokers = c.brokers.map(([id, rack]) => ({
      id: Number(id),
      rack: rack === null ? null : String(rack),
    }));
    const attempt = () =>
      assignReplicasToBrokers(
        brokers,
        c.partitions,
        c.replicationFactor,
        noDraws,
        c.fixedStartIndex,
        c.startPartitionId,
      );
    if ('error' in c) expect(refusal(attempt).message).toBe(c.error);
    else expect(attempt()).toEqual(c.replicas);
  });
});

const FC_SEED = 20251129;

describe(`AdminUtils.assignReplicasToBrokers: properties (fast-check seed ${FC_SEED})`, () => {
  const options = { seed: FC_SEED, numRuns: 300 };
  /** Racks r0..r(k-1) with the same number of brokers each, and a multiple of the broker count as partitions. */
  const evenRacks = fc
    .record({
      racks: fc.integer({ min: 1, max: 4 }),
      perRack: fc.integer({ min: 1, max: 4 }),
      rounds: fc.integer({ min: 1, max: 3 }),
    })
    .chain(({ racks, perRack, rounds }) =>
      fc.record({
        brokers: fc.constant(
          Array.from({ length: racks * perRack }, (_, i): BrokerMetadata => ({
            id: i,
            rack: `r${i % racks}`,
          })),
        ),
        partitions: fc.constant(rounds * racks * perRack),
        replicationFactor: fc.integer({ min: 1, max: racks }),
        rngSeed: fc.integer(),
      }),
    );

  it('gives no broker two replicas of a partition and no rack two while RF ≤ racks', () => {
    fc.assert(
      fc.property(evenRacks, (c) => {
        const assignment = assignReplicasToBrokers(
          c.brokers,
          c.partitions,
          c.replicationFactor,
          intSource(seedRng(c.rngSeed)),
        );
        for (const replicas of assignment) {
          expect(new Set(replicas).size).toBe(c.replicationFactor);
          expect(new Set(replicas.map((id) => c.brokers[id]?.rack)).size).toBe(c.replicationFactor);
        }
      }),
      options,
    );
  });

  it('gives every broker the same number of leaderships on even racks', () => {
    fc.assert(
      fc.property(evenRacks, (c) => {
        const assignment = assignReplicasToBrokers(
          c.brokers,
          c.partitions,
          c.replicationFactor,
          intSource(seedRng(c.rngSeed)),
        );
        const perBroker = c.partitions / c.brokers.length;
        for (const b of c.brokers) expect(assignment.filter((r) => r[0] === b.id)).toHaveLength(perBroker);
      }),
      options,
    );
  });
});
