// The snapshot: a plain, JSON-serialisable view of the whole cluster.

import { securityView } from '../broker/acl';
import { clientsView } from './clientsView';
import { failureBudget } from '../operations/budget';
import { activeController } from '../kraft/quorumController';
import { rulesFor } from '../kraft/replicationControl';
import { clusterImage } from '../model/image';
import { logEndOffset } from '../model/log';
import { lastRates } from './metrics';
import { isReassigning } from '../kraft/reassignmentReplicas';
import { leadershipSkew } from '../operations/reassignment';
import type { MetaImage } from '../model/metadata';
import { compareTopicPartition, tpKey } from '../model/metadata';
import { RAFT_FETCH_MAX_WAIT_MS } from '../kraft/raftLog';
import { raftStateOf } from '../kraft/quorum';
import type { SimNode, World } from '../model/world';
import type { ConfigValue, NodeId } from '../model/types';
import type {
  AppliedConfigView,
  InvariantView,
  LinkCut,
  NodeView,
  PartitionView,
  ReassignmentView,
  Snapshot,
  TimeoutsView,
  VoterView,
} from '../model/views';

export function buildSnapshot(w: World): Snapshot {
  const img = clusterImage(w);
  // What the active controller last heard from each broker (BrokerHeartbeat or registration).
  const heard = activeController(w)?.controller?.lastContactMs;
  const nodes: NodeView[] = [...w.nodes.values()]
    .sort((a, b) => a.id - b.id)
    .map((n) => {
      const reg = img.brokers.get(n.id);
      return {
        id: n.id,
        roles: [...n.roles],
        rack: n.rack,
        state: n.state,
        fenced: n.isBroker ? (reg ? reg.fenced : true) : false,
        brokerEpoch: reg?.brokerEpoch ?? -1,
        metadataOffset: n.raft ? n.raft.image.offset : -1,
        shuttingDown: !!reg?.inControlledShutdown || !!n.broker?.wantShutDown,
        lastHeartbeatMs: n.isBroker ? (heard?.get(n.id) ?? null) : null,
        ...(n.isBroker ? lastRates(w, n.id) : {}),
      };
    });
  const voters: VoterView[] = w.voterIds.map((id) => {
    const n = w.nodes.get(id)!;
    return {
      id,
      state: raftStateOf(n) as VoterView['state'],
      epoch: n.disk.quorumEpoch,
      logEndOffset: logEndOffset(n.disk.metaLog),
      highWatermark: n.raft?.highWatermark ?? 0,
      votedFor: n.disk.votedFor,
      leaderId: n.raft?.leaderId ?? null,
      lastFetchOkMs: overdueFetchMs(w, n),
    };
  });
  const leader = voters.filter((v) => v.state === 'leader').sort((a, b) => b.epoch - a.epoch)[0];
  const partitions: PartitionView[] = [...img.partitions.values()].sort(compareTopicPartition).map((p) => {
    const key = tpKey(p.topic, p.partition);
    const lagging = laggingFollowers(w, p.leader, key);
    const replicaLogs = p.replicas.map((brokerId) => {
      const d = w.nodes.get(brokerId)?.disk.partitions.get(key);
      const lastCaughtUpAtMs = lagging?.get(brokerId);
      return {
        brokerId,
        logStartOffset: d ? d.log.logStartOffset : 0,
        logEndOffset: d ? logEndOffset(d.log) : 0,
        highWatermark: d ? d.highWatermark : 0,
        ...(lastCaughtUpAtMs === undefined ? {} : { lastCaughtUpAtMs }),
      };
    });
    const leaderLog = replicaLogs.find((r) => r.brokerId === p.leader);
    return {
      topic: p.topic,
      partition: p.partition,
      replicas: [...p.replicas],
      leader: p.leader,
      leaderEpoch: p.leaderEpoch,
      isr: [...p.isr],
      elr: [...p.elr],
      highWatermark: leaderLog ? leaderLog.highWatermark : 0,
      replicaLogs,
      adding: [...p.adding],
      removing: [...p.removing],
      budget: failureBudget(p, rulesFor(w, img, p.topic)),
    };
  });
  const brokerIds = [...w.nodes.values()].filter((n) => n.isBroker).map((n) => n.id);
  const partitionHw = new Map(partitions.map((p) => [tpKey(p.topic, p.partition), p.highWatermark]));
  return {
    timeMs: w.nowMs,
    nodes,
    quorum: {
      leaderId: leader ? leader.id : null,
      epoch: Math.max(0, ...voters.map((v) => v.epoch)),
      highWatermark: leader ? leader.highWatermark : Math.max(0, ...voters.map((v) => v.highWatermark)),
      voters,
    },
    topics: [...img.topics.values()]
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((t) => ({
        name: t.name,
        topicId: t.topicId,
        partitions: t.partitions,
        replicationFactor: img.partitions.get(tpKey(t.name, 0))?.replicas.length ?? 0,
        config: { ...t.config },
      })),
    partitions,
    network: { latencyMs: w.network.latencyMs, cuts: networkCuts(w), inFlight: w.network.inFlight },
    leadership: leadershipSkew(partitions, brokerIds),
    configs: appliedConfigs(w, img),
    reassignments: reassignments(partitions),
    security: securityView(w),
    clients: clientsView(w, img, (tp) => partitionHw.get(tp) ?? 0),
    timeouts: timeouts(w, img),
  };
}

/**
 * What the invariant monitor reads of a snapshot (observe/invariants.ts), built without the rest:
 * no failure budgets, clients, configs or copies of the image's lists. The monitor checks at every
 * metrics sample, where a whole snapshot of the large preset cost several milliseconds.
 */
export function buildInvariantView(w: World, only: ReadonlySet<string> | null = null): InvariantView {
  const img = clusterImage(w);
  const nodes = [...w.nodes.values()]
    .sort((a, b) => a.id - b.id)
    .map((n) => ({ id: n.id, state: n.state, metadataOffset: n.raft ? n.raft.image.offset : -1 }));
  const voters = w.voterIds.map((id) => {
    const n = w.nodes.get(id)!;
    return { id, state: raftStateOf(n) as VoterView['state'], epoch: n.disk.quorumEpoch };
  });
  // `only`: the partitions to show, by key (a live monitor's look between full passes); else all.
  const states = only ? [...only].flatMap((k) => img.partitions.get(k) ?? []) : [...img.partitions.values()];
  const partitions = states.sort(compareTopicPartition).map((p) => {
    const key = tpKey(p.topic, p.partition);
    let highWatermark = 0;
    const replicaLogs = p.replicas.map((brokerId) => {
      const d = w.nodes.get(brokerId)?.disk.partitions.get(key);
      const log = d
        ? {
            brokerId,
            logStartOffset: d.log.logStartOffset,
            logEndOffset: logEndOffset(d.log),
            highWatermark: d.highWatermark,
          }
        : { brokerId, logStartOffset: 0, logEndOffset: 0, highWatermark: 0 };
      if (brokerId === p.leader) highWatermark = log.highWatermark;
      return log;
    });
    return {
      topic: p.topic,
      partition: p.partition,
      replicas: p.replicas,
      leader: p.leader,
      leaderEpoch: p.leaderEpoch,
      isr: p.isr,
      elr: p.elr,
      highWatermark,
      replicaLogs,
    };
  });
  return { timeMs: w.nowMs, nodes, quorum: { voters }, partitions };
}

/**
 * A following voter's last successful fetch, once it is overdue (older than twice the leader's long poll):
 * a follower fetching on time gets null, so the quorum's snapshot does not change with every fetch.
 */
function overdueFetchMs(w: World, n: SimNode): number | null {
  const r = n.raft;
  if (n.state !== 'running' || !r || r.role !== 'follower' || !Number.isFinite(r.lastFetchOkMs)) return null;
  return w.nowMs - r.lastFetchOkMs > 2 * RAFT_FETCH_MAX_WAIT_MS ? r.lastFetchOkMs : null;
}

/**
 * The leader's view of its ISR followers that are behind its log end, with when it last saw each
 * caught up (the clock of Partition.isFollowerOutOfSync); null when the leader is not running.
 */
function laggingFollowers(w: World, leaderId: NodeId, key: string): Map<NodeId, number> | null {
  const leader = w.nodes.get(leaderId);
  const mem = leader?.state === 'running' ? leader.broker?.replicas.get(key) : undefined;
  if (!leader || !mem || mem.role !== 'leader') return null;
  const disk = leader.disk.partitions.get(key);
  if (!disk) return null;
  const leo = logEndOffset(disk.log);
  let out: Map<NodeId, number> | null = null;
  for (const r of mem.isr) {
    const fs = r === leaderId ? undefined : mem.followers.get(r);
    // A never-caught-up follower has a time far in the past; it is not in the ISR, but be safe.
    if (!fs || fs.logEndOffset === leo || fs.lastCaughtUpTimeMs < 0) continue;
    (out ??= new Map()).set(r, fs.lastCaughtUpTimeMs);
  }
  return out;
}

function timeouts(w: World, img: MetaImage): TimeoutsView {
  return {
    brokerSessionTimeoutMs: Number(
      img.clusterConfig['broker.session.timeout.ms'] ?? w.config['broker.session.timeout.ms'],
    ),
    brokerHeartbeatIntervalMs: Number(w.config['broker.heartbeat.interval.ms']),
    replicaLagTimeMaxMs: Number(w.config['replica.lag.time.max.ms']),
    controllerQuorumFetchTimeoutMs: Number(w.config['controller.quorum.fetch.timeout.ms']),
  };
}

/** Each config set in the committed metadata, with the brokers whose own image already has it. */
function appliedConfigs(w: World, img: MetaImage): AppliedConfigView[] {
  const brokers = [...w.nodes.values()].filter((n) => n.isBroker).sort((a, b) => a.id - b.id);
  const out: AppliedConfigView[] = [];
  const add = (
    resourceType: AppliedConfigView['resourceType'],
    resourceName: string,
    config: Record<string, ConfigValue>,
    read: (m: MetaImage) => Record<string, ConfigValue> | undefined,
  ) => {
    for (const [name, value] of Object.entries(config).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const appliedBy: NodeId[] = [];
      const pendingOn: NodeId[] = [];
      for (const n of brokers) {
        const mine = n.raft ? read(n.raft.image) : undefined;
        (mine && mine[name] === value ? appliedBy : pendingOn).push(n.id);
      }
      out.push({ resourceType, resourceName, name, value, appliedBy, pendingOn });
    }
  };
  add('cluster', '', img.clusterConfig, (m) => m.clusterConfig);
  for (const [key, config] of [...img.brokerConfigs].sort(([a], [b]) => Number(a) - Number(b)))
    add('broker', key, config, (m) => m.brokerConfigs.get(key));
  for (const t of [...img.topics.values()].sort((a, b) => (a.name < b.name ? -1 : 1)))
    add('topic', t.name, t.config, (m) => m.topics.get(t.name)?.config);
  return out;
}

function reassignments(partitions: PartitionView[]): ReassignmentView[] {
  return partitions.filter(isReassigning).map((p) => {
    const leaderLeo = p.replicaLogs.find((r) => r.brokerId === p.leader)?.logEndOffset ?? 0;
    return {
      topic: p.topic,
      partition: p.partition,
      replicas: [...p.replicas],
      adding: [...p.adding!],
      removing: [...p.removing!],
      progress: p.adding!.map((b) => ({
        brokerId: b,
        logEndOffset: p.replicaLogs.find((r) => r.brokerId === b)?.logEndOffset ?? 0,
        leaderLogEndOffset: leaderLeo,
      })),
    };
  });
}

/** Every cut direction: explicit cuts and the pairs of nodes in different partitionNetwork groups. */
function networkCuts(w: World): LinkCut[] {
  const cuts: LinkCut[] = [];
  const seen = new Set<string>();
  const add = (from: number | string, to: number | string) => {
    const k = `${from}>${to}`;
    if (seen.has(k)) return;
    seen.add(k);
    cuts.push({ from, to });
  };
  for (const k of w.network.cuts) {
    const [from, to] = k.split('>') as [string, string];
    add(/^\d+$/.test(from) ? Number(from) : from, /^\d+$/.test(to) ? Number(to) : to);
  }
  const grouped = [...w.network.groups.entries()].sort((a, b) => Number(a[0]) - Number(b[0]));
  for (const [a, ga] of grouped) for (const [b, gb] of grouped) if (ga !== gb) add(a, b);
  return cuts;
}
