// Commands: what a user, a script step or a lesson does to the cluster (crash, restart, cut a
// link, create a topic, produce, …), applied to the World after validate.ts has checked them.

import { addAcl, removeAcl } from './broker/acl';
import { beginShutdown } from './broker/broker';
import { restartProcess, stopProcess } from './process';
import { checkConfig } from './model/config';
import { activeController } from './kraft/quorumController';
import { alterConfigs, checkAlterConfigs } from './kraft/configurationControl';
import { alterPartitionReassignments, createTopic } from './kraft/replicationControl';
import { emit } from './kernel/kernel';
import { tpKey } from './model/metadata';
import { checkProduce, checkStartProducer, produce, startProducer, stopProducer } from './clients/producer';
import { checkStartConsumer, startConsumer, stopConsumer } from './clients/consumer';
import { noteClientActivity } from './clients/consumerFetcher';
import { commitOffsets } from './clients/consumerCoordinator';
import { checkStartProcessor, startProcessor, stopProcessor } from './clients/streamProcessor';
import {
  abortTransaction,
  beginTransaction,
  checkTransactionCall,
  commitTransaction,
} from './clients/transactionManager';
import { drain } from './clients/recordAccumulator';
import { fetchMetadata } from './kraft/raftLog';
import { electLeaders as controllerElectLeaders } from './kraft/replicationControl';
import type { World } from './model/world';
import type { Command } from './model/types';
import { addNode, bootNode } from './world';
import { LIMITS } from './validate';

export function applyCommand(w: World, c: Command): string | null {
  noteClientActivity(w); // a command may change what a consumer fetches (consumerFetcher.ts)
  const node = 'nodeId' in c && c.type !== 'addNode' ? w.nodes.get(c.nodeId) : undefined;
  switch (c.type) {
    case 'crashNode':
      if (!node || node.state !== 'running') return `node ${c.nodeId} is not running`;
      stopProcess(w, node, 'crashed');
      emit(
        w,
        'NodeCrashed',
        `Node ${c.nodeId} crashed: its memory is gone, its disk (logs, metadata) stays.`,
        { nodeId: c.nodeId },
      );
      return null;
    case 'restartNode':
      if (!node || node.state === 'running') return `node ${c.nodeId} is already running`;
      emit(w, 'NodeRestarted', `Node ${c.nodeId} restarts: it reads its disk, re-registers and catches up.`, {
        nodeId: c.nodeId,
      });
      restartProcess(w, node);
      return null;
    case 'shutdownNode':
      if (!node || node.state !== 'running') return `node ${c.nodeId} is not running`;
      emit(w, 'ShutdownRequested', `Node ${c.nodeId} begins a controlled shutdown.`, { nodeId: c.nodeId });
      if (node.broker) beginShutdown(w, node);
      else stopProcess(w, node, 'stopped');
      return null;
    case 'partitionNetwork': {
      w.network.groups = new Map();
      c.groups.forEach((g, i) => g.forEach((id) => w.network.groups.set(id, i)));
      emit(
        w,
        'NetworkPartitioned',
        `The network is partitioned into ${c.groups.map((g) => `{${g.join(', ')}}`).join(' | ')}.`,
        {
          groups: c.groups,
        },
      );
      return null;
    }
    case 'cutLink':
      w.network.cuts.add(`${c.from}>${c.to}`);
      if (!c.oneWay) w.network.cuts.add(`${c.to}>${c.from}`);
      emit(w, 'LinkCut', `The link ${c.from} ${c.oneWay ? '→' : '↔'} ${c.to} is cut.`, {
        from: c.from,
        to: c.to,
        oneWay: !!c.oneWay,
      });
      return null;
    case 'healNetwork':
      w.network.cuts.clear();
      w.network.groups.clear();
      emit(w, 'NetworkHealed', 'The network is healed: every node reaches every other.');
      kickAfterHeal(w);
      return null;
    case 'createTopic': {
      const ctl = activeController(w);
      if (!ctl)
        return 'REQUEST_TIMED_OUT: no active controller (the quorum has no leader), so the topic cannot be created now';
      const { type: _t, ...spec } = c;
      return createTopic(w, ctl, spec);
    }
    case 'alterConfig': {
      const scope = c.resourceType;
      for (const [k, v] of Object.entries(c.configs)) {
        const err = v === null ? null : checkConfig(k, v, scope, { alter: true });
        if (err) return `INVALID_CONFIG: ${err}`;
      }
      const ctl = activeController(w);
      if (!ctl) return 'REQUEST_TIMED_OUT: no active controller (the quorum has no leader)';
      if (scope === 'topic' && !ctl.controller!.work!.topics.has(c.resourceName ?? ''))
        return `UNKNOWN_TOPIC_OR_PARTITION: no topic "${c.resourceName}"`;
      const refused = checkAlterConfigs(w, ctl, scope, c.configs);
      if (refused) return refused;
      alterConfigs(w, ctl, scope, c.resourceName ?? '', c.configs);
      return null;
    }
    case 'produce': {
      const error = checkProduce(w, c);
      if (error) return error;
      produce(w, c);
      return null;
    }
    case 'startProducer': {
      const error = checkStartProducer(w, c);
      if (error) return error;
      startProducer(w, c);
      return null;
    }
    case 'stopProducer':
      return stopProducer(w, c.producerId, c.graceful ?? true);
    case 'beginTransaction':
    case 'commitTransaction':
    case 'abortTransaction': {
      const p = w.producers.get(c.producerId);
      const refused = checkTransactionCall(p, c.type, c.producerId);
      if (refused) return refused;
      if (c.type === 'beginTransaction') beginTransaction(w, p!);
      else if (c.type === 'commitTransaction') commitTransaction(w, p!);
      else abortTransaction(w, p!);
      drain(w, p!);
      return null;
    }
    case 'startConsumer': {
      const error = checkStartConsumer(w, c);
      if (error) return error;
      startConsumer(w, c);
      return null;
    }
    case 'stopConsumer':
      return stopConsumer(w, c.consumerId, c.graceful ?? true);
    case 'commitOffsets':
      return commitOffsets(w, c.consumerId);
    case 'startProcessor': {
      const error = checkStartProcessor(w, c);
      if (error) return error;
      startProcessor(w, c);
      return null;
    }
    case 'stopProcessor':
      return stopProcessor(w, c.processorId, c.graceful ?? true);
    case 'addNode': {
      if (w.nodes.has(c.nodeId)) return `node ${c.nodeId} already exists`;
      if (c.roles.includes('controller'))
        return 'adding a controller needs a dynamic quorum (KIP-853), which this simulator does not model yet: add brokers only';
      if (w.nodes.size >= LIMITS.maxNodes) return `at most ${LIMITS.maxNodes} nodes`;
      const n = addNode(w, c.nodeId, c.roles, c.rack ?? null);
      emit(
        w,
        'NodeAdded',
        `Broker ${c.nodeId} starts${c.rack ? ` in rack ${c.rack}` : ''}: it registers and joins empty.`,
        { nodeId: c.nodeId },
      );
      bootNode(w, n);
      return null;
    }
    case 'reassignPartitions': {
      const ctl = activeController(w);
      if (!ctl) return 'REQUEST_TIMED_OUT: no active controller (the quorum has no leader)';
      return alterPartitionReassignments(w, ctl, c.partitions);
    }
    case 'addAcl':
    case 'removeAcl': {
      const { type, ...acl } = c;
      const changed = type === 'addAcl' ? addAcl(w, acl) : removeAcl(w, acl);
      if (!changed) return type === 'addAcl' ? 'this ACL already exists' : 'no such ACL';
      const rule = `${acl.permission.toUpperCase()} ${acl.principal} ${acl.operation} on ${acl.resourceType} ${acl.resourceName}${
        acl.patternType === 'prefixed' ? '*' : ''
      }`;
      emit(
        w,
        type === 'addAcl' ? 'AclAdded' : 'AclRemoved',
        type === 'addAcl'
          ? `ACL added: ${rule}.${w.security.acls.length === 1 ? ' ACLs are now enforced: anything no ACL allows is refused.' : ''}`
          : `ACL removed: ${rule}.${w.security.acls.length === 0 ? ' No ACL is left: everything is allowed again.' : ''}`,
        { acl },
      );
      return null;
    }
    case 'loseZone': {
      // A power loss, not a network cut: the nodes stop at one instant, clients cannot reach them.
      const members = [...w.nodes.values()].filter((n) => n.rack === c.rack);
      if (members.length === 0) return `no node is in rack ${c.rack}`;
      const running = members.filter((n) => n.state === 'running');
      if (running.length === 0) return `every node of rack ${c.rack} is already down`;
      emit(
        w,
        'ZoneLost',
        `Zone ${c.rack} loses power: nodes ${running.map((n) => n.id).join(', ')} crash at once.`,
        { rack: c.rack, nodeIds: running.map((n) => n.id) },
      );
      for (const node of running) {
        stopProcess(w, node, 'crashed');
        emit(
          w,
          'NodeCrashed',
          `Node ${node.id} crashed: its memory is gone, its disk (logs, metadata) stays.`,
          {
            nodeId: node.id,
          },
        );
      }
      return null;
    }
    case 'loseRegion':
      // Simulation.apply performs it: it concerns both clusters.
      return 'loseRegion needs the simulation of both regions';
    case 'cli':
      // Simulation.apply runs the tool: its output is the command's result.
      return 'a cli line needs the simulation, which returns its output';
    case 'electLeaders': {
      const ctl = activeController(w);
      if (!ctl) return 'REQUEST_TIMED_OUT: no active controller (the quorum has no leader)';
      const img = ctl.controller!.work!;
      const parts = c.partitions
        ? c.partitions
            .map((p) => img.partitions.get(tpKey(p.topic, p.partition)))
            .filter((p) => p !== undefined)
        : [...img.partitions.values()];
      if (c.partitions && parts.length !== c.partitions.length)
        return 'UNKNOWN_TOPIC_OR_PARTITION: a named partition does not exist';
      const off = controllerElectLeaders(w, ctl, c.electionType, parts);
      if (off < 0)
        return c.electionType === 'preferred'
          ? 'ELECTION_NOT_NEEDED: every named partition is already led by its preferred replica, or that replica is not in the ISR'
          : 'ELECTION_NOT_NEEDED: no named partition is offline';
      return null;
    }
  }
}

/** After healing, nodes waiting on long timeouts try again promptly (TCP reconnects). */
function kickAfterHeal(w: World): void {
  for (const node of w.nodes.values()) {
    if (node.state !== 'running' || !node.raft) continue;
    if (node.raft.role === 'observer' || node.raft.role === 'follower') fetchMetadata(w, node);
  }
}
