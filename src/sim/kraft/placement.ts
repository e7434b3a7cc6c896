// Replica placement of the KRaft controller: Kafka's StripedReplicaPlacer, draw for draw, so that
// a seed gives the assignment Kafka would give with the same random numbers.
// Source: apache/kafka metadata/src/main/java/org/apache/kafka/metadata/placement/StripedReplicaPlacer.java

import { javaHashMapOrder, javaStringHashCode } from '../kernel/javaHash';
import type { IntSource } from '../kernel/rng';
import { itemAt } from '../model/arrays';

/** A registered broker that is not shutting down, as the controller offers it to the placer. */
export interface UsableBroker {
  id: number;
  rack: string | null;
  fenced: boolean;
}

/** A topic's replicas cannot be placed; the client sees INVALID_REPLICATION_FACTOR. */
export class PlacementError extends Error {
  readonly code = 'INVALID_REPLICATION_FACTOR';
  constructor(message: string) {
    super(message);
    this.name = 'PlacementError';
  }
}

/**
 * Places `partitionCount` partitions of one new topic, as one `StripedReplicaPlacer.place` call:
 * one replica list per partition, its first replica the leader (never a fenced broker).
 * `brokers` in the order the controller iterates them; it only matters for racks whose names
 * share a HashMap bucket.
 */
export function placeReplicas(
  brokers: readonly UsableBroker[],
  partitionCount: number,
  replicationFactor: number,
  random: IntSource,
): number[][] {
  // StripedReplicaPlacer#place: the rack list draws its random offsets before any check.
  const racks = new RackList(brokers, random);
  checkPositive(replicationFactor);
  checkSomeUnfenced(racks.unfencedCount);
  checkEnoughBrokers(replicationFactor, racks.totalCount);
  const assignment: number[][] = [];
  for (let p = 0; p < partitionCount; p++) assignment.push(racks.place(replicationFactor));
  return assignment;
}

function checkPositive(replicationFactor: number): void {
  // StripedReplicaPlacer#throwInvalidReplicationFactorIfNonPositive
  if (replicationFactor <= 0) {
    throw new PlacementError(
      `Invalid replication factor ${replicationFactor}: the replication factor must be positive.`,
    );
  }
}

function checkSomeUnfenced(unfencedCount: number): void {
  // StripedReplicaPlacer#throwInvalidReplicationFactorIfZero
  if (unfencedCount === 0) throw new PlacementError('All brokers are currently fenced.');
}

function checkEnoughBrokers(replicationFactor: number, totalCount: number): void {
  // StripedReplicaPlacer#throwInvalidReplicationFactorIfTooFewBrokers
  if (replicationFactor > totalCount) {
    throw new PlacementError(
      `The target replication factor of ${replicationFactor} cannot be reached because only ` +
        `${totalCount} broker(s) are registered.`,
    );
  }
}

/** `Collections.shuffle(list, rnd)`: swap each slot, from the last down, with a random earlier one. */
export function javaShuffle<T>(list: T[], random: IntSource): void {
  // java.util.Collections#shuffle (the RandomAccess branch)
  for (let i = list.length; i > 1; i--) {
    const j = random.nextInt(i);
    const tmp = itemAt(list, i - 1);
    list[i - 1] = itemAt(list, j);
    list[j] = tmp;
  }
}

/**
 * Brokers of one rack and one fencing state, handed out round-robin. Each placement is an
 * iteration epoch: a new epoch rewinds the cursor and moves the start one step on.
 */
class BrokerList {
  readonly ids: number[] = [];
  private taken = 0;
  private start = 0;
  private epoch = 0;

  /** Sorts the ids and draws a random start (no draw for an empty list). */
  initialize(random: IntSource): void {
    // StripedReplicaPlacer.BrokerList#initialize
    if (this.ids.length === 0) return;
    this.ids.sort((a, b) => a - b);
    this.start = random.nextInt(this.ids.length);
  }

  /** The next broker of this epoch, or -1 once every broker was handed out in it. */
  next(epoch: number): number {
    // StripedReplicaPlacer.BrokerList#next
    const size = this.ids.length;
    if (size === 0) return -1;
    // Kafka compares with the last epoch seen, not "a new placement": once the epoch counter has
    // wrapped, a list last used at this same epoch number in an earlier round carries on where it
    // stopped (and may be exhausted).
    if (this.epoch !== epoch) {
      this.epoch = epoch;
      this.taken = 0;
      this.start = (this.start + 1) % size;
    }
    if (this.taken >= size) return -1;
    return itemAt(this.ids, (this.taken++ + this.start) % size);
  }
}

class Rack {
  readonly unfenced = new BrokerList();
  readonly fenced = new BrokerList();

  /** Unfenced brokers first; fenced ones only once this rack's unfenced are used up this epoch. */
  next(epoch: number): number {
    // StripedReplicaPlacer.Rack#next
    const id = this.unfenced.next(epoch);
    return id >= 0 ? id : this.fenced.next(epoch);
  }
}

/** One topic's placement state: racks in a striped round-robin from a random first rack. */
class RackList {
  /** Racks in Java HashMap<Optional<String>, Rack> iteration order. */
  private readonly racksInMapOrder: Rack[];
  private readonly rackByName = new Map<string | null, Rack>();
  /** Rack names, "no rack" (null) first, then by String.compareTo; shuffled every round. */
  private readonly names: (string | null)[];
  readonly totalCount: number;
  readonly unfencedCount: number;
  private epoch = 0;
  private rackOffset = 0;

  constructor(
    brokers: readonly UsableBroker[],
    private readonly random: IntSource,
  ) {
    // StripedReplicaPlacer.RackList#RackList
    const namesInInsertionOrder: (string | null)[] = [];
    let unfencedCount = 0;
    for (const broker of brokers) {
      let rack = this.rackByName.get(broker.rack);
      if (rack === undefined) {
        rack = new Rack();
        this.rackByName.set(broker.rack, rack);
        namesInInsertionOrder.push(broker.rack);
      }
      if (broker.fenced) {
        rack.fenced.ids.push(broker.id);
      } else {
        rack.unfenced.ids.push(broker.id);
        unfencedCount++;
      }
    }
    // Optional<String>.hashCode() is the string's hash, 0 for Optional.empty().
    this.racksInMapOrder = javaHashMapOrder(namesInInsertionOrder, (n) =>
      n === null ? 0 : javaStringHashCode(n),
    ).map((n) => this.rack(n));
    for (const rack of this.racksInMapOrder) {
      // StripedReplicaPlacer.Rack#initialize: fenced list first.
      rack.fenced.initialize(random);
      rack.unfenced.initialize(random);
    }
    this.names = [...namesInInsertionOrder].sort(compareOptionalStrings);
    this.totalCount = brokers.length;
    this.unfencedCount = unfencedCount;
    this.rackOffset = this.names.length === 0 ? 0 : random.nextInt(this.names.length);
  }

  /** One partition's replicas: a leader from the first rack with an unfenced broker, then striped. */
  place(replicationFactor: number): number[] {
    // StripedReplicaPlacer.RackList#place
    checkPositive(replicationFactor);
    checkEnoughBrokers(replicationFactor, this.totalCount);
    checkSomeUnfenced(this.unfencedCount);
    // After as many placements as there are unfenced brokers, reshuffle to avoid repeating them.
    // Not with a single unfenced broker: the epoch must not reset or the leader search would spin.
    if (this.epoch === this.unfencedCount && this.unfencedCount > 1) {
      this.shuffle();
      this.epoch = 0;
    }
    const rackCount = this.names.length;
    if (this.rackOffset === rackCount) this.rackOffset = 0;

    const replicas: number[] = [];
    let leaderRack = this.rackOffset;
    for (let tried = 0; ; tried++) {
      if (tried === rackCount) throw new Error('placement: no unfenced broker left in this epoch');
      const leader = this.rack(itemAt(this.names, leaderRack)).unfenced.next(this.epoch);
      if (leader >= 0) {
        replicas.push(leader);
        break;
      }
      leaderRack = (leaderRack + 1) % rackCount;
    }

    // Followers: cycle from the same first rack, stepping over the leader's rack the first time only.
    let skipRack = leaderRack;
    let rackIndex = this.rackOffset;
    let fruitless = 0;
    while (replicas.length < replicationFactor) {
      let id = -1;
      if (rackIndex === skipRack) {
        skipRack = -1;
      } else {
        id = this.rack(itemAt(this.names, rackIndex)).next(this.epoch);
      }
      rackIndex = (rackIndex + 1) % rackCount;
      if (id >= 0) {
        replicas.push(id);
        fruitless = 0;
      } else if (++fruitless > 2 * rackCount) {
        // Kafka would loop forever here; say so instead.
        throw new Error('placement: no broker left in this epoch for the remaining replicas');
      }
    }
    this.epoch++;
    this.rackOffset++;
    return replicas;
  }

  private shuffle(): void {
    // StripedReplicaPlacer.RackList#shuffle
    javaShuffle(this.names, this.random);
    for (const rack of this.racksInMapOrder) {
      javaShuffle(rack.fenced.ids, this.random);
      javaShuffle(rack.unfenced.ids, this.random);
    }
  }

  private rack(name: string | null): Rack {
    const rack = this.rackByName.get(name);
    if (rack === undefined) throw new Error(`placement: unknown rack ${String(name)}`);
    return rack;
  }
}

/** Kafka's OptionalStringComparator: empty first, then String.compareTo (UTF-16 code units). */
function compareOptionalStrings(a: string | null, b: string | null): number {
  // org.apache.kafka.metadata.OptionalStringComparator#compare
  if (a === null) return b === null ? 0 : -1;
  if (b === null) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
