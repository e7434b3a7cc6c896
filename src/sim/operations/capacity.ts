// Sizing a cluster on paper (pure): storage and network per broker from the write rate, retention,
// replication factor, consumer groups and broker count. Every copy of a partition is stored and every
// follower fetches each byte once; every consumer group reads each byte once from the leader.
// Decimal units (1 MB = 10^6 bytes, 1 TB = 10^12 bytes), as disk and network vendors count.

export interface CapacityInput {
  /** Bytes per second the producers write (before replication). */
  writeBytesPerSec: number;
  retentionMs: number;
  replicationFactor: number;
  /** Consumer groups that each read the whole stream. */
  consumerGroups: number;
  brokers: number;
}

export interface CapacityPlan {
  input: CapacityInput;
  /** Bytes kept on disk over the whole cluster: write rate × retention × replication factor. */
  storageBytes: number;
  storageBytesPerBroker: number;
  /** Into the brokers: the producers' writes plus the followers' fetches, write × RF. */
  networkInBytesPerSec: number;
  networkInBytesPerSecPerBroker: number;
  /** Out of the brokers: replication to followers, write × (RF − 1), plus every consumer group, write × groups. */
  networkOutBytesPerSec: number;
  networkOutBytesPerSecPerBroker: number;
  /** Of the outgoing traffic, the part that goes to consumers. */
  consumerOutBytesPerSec: number;
  replicationOutBytesPerSec: number;
  /** The working in words, one step a line. */
  explanation: string[];
}

const TB = 1e12;
const MB = 1e6;

function fmt(bytes: number, unit: number, name: string): string {
  const v = bytes / unit;
  return `${Number.isInteger(v) ? v : v.toFixed(2)} ${name}`;
}

/** The capacity plan; throws a RangeError on a non-positive broker count or replication factor. */
export function capacityPlan(input: CapacityInput): CapacityPlan {
  const { writeBytesPerSec: write, retentionMs, replicationFactor: rf, consumerGroups, brokers } = input;
  if (!(brokers >= 1)) throw new RangeError('brokers must be at least 1');
  if (!(rf >= 1)) throw new RangeError('replicationFactor must be at least 1');
  if (rf > brokers) throw new RangeError(`replication factor ${rf} cannot exceed the ${brokers} brokers`);
  const retentionS = retentionMs / 1000;
  const storageBytes = write * retentionS * rf;
  const networkIn = write * rf;
  const replicationOut = write * (rf - 1);
  const consumerOut = write * consumerGroups;
  const networkOut = replicationOut + consumerOut;
  return {
    input: { ...input },
    storageBytes,
    storageBytesPerBroker: storageBytes / brokers,
    networkInBytesPerSec: networkIn,
    networkInBytesPerSecPerBroker: networkIn / brokers,
    networkOutBytesPerSec: networkOut,
    networkOutBytesPerSecPerBroker: networkOut / brokers,
    consumerOutBytesPerSec: consumerOut,
    replicationOutBytesPerSec: replicationOut,
    explanation: [
      `Storage: ${fmt(write, MB, 'MB/s')} × ${retentionS} s × ${rf} copies = ${fmt(storageBytes, TB, 'TB')} ` +
        `(${fmt(storageBytes / brokers, TB, 'TB')} per broker over ${brokers}), before free-space headroom.`,
      `Network in: ${fmt(write, MB, 'MB/s')} from producers + ${fmt(replicationOut, MB, 'MB/s')} fetched by followers = ${fmt(networkIn, MB, 'MB/s')}.`,
      `Network out: ${fmt(replicationOut, MB, 'MB/s')} to followers + ${consumerGroups} consumer group(s) × ${fmt(write, MB, 'MB/s')} = ${fmt(networkOut, MB, 'MB/s')}.`,
      `Consumers alone read ${consumerGroups}× what producers write: disks and networks, not processors, are the first limits.`,
    ],
  };
}

/**
 * The seed text's worked example: 100 MB/s for three days with three copies and ten consumer groups.
 * It gives 77.76 TB, not the "several hundred terabytes" the text says; that would take about ten
 * days of retention at this rate (or the same three days at roughly four times the rate).
 */
export const SEED_EXAMPLE: CapacityInput = Object.freeze({
  writeBytesPerSec: 100 * MB,
  retentionMs: 3 * 24 * 3600 * 1000,
  replicationFactor: 3,
  consumerGroups: 10,
  brokers: 6,
});
