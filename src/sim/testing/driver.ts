// A small chainable driver for story tests: build a cluster, break it, look at it.

import { createSimulation } from '../index';
import type { Simulation } from '../simulation';
import type {
  Acks,
  Command,
  ConfigValue,
  LedgerEntry,
  NodeId,
  Scenario,
  ScenarioTopic,
  SimEvent,
} from '../model/types';
import type { PartitionView } from '../model/views';

export interface ClusterSpec {
  seed?: number;
  controllers?: number;
  /** Ids of the controllers (default 1..controllers); brokers then get `brokerIds` or follow on. */
  controllerIds?: number[];
  brokerIds?: number[];
  /** Broker racks, one per broker; brokers get ids after the controllers. */
  brokerRacks?: (string | null)[];
  brokers?: number;
  config?: Record<string, ConfigValue>;
  topics?: ScenarioTopic[];
  latencyMs?: number;
  jitterMs?: number;
}

/** Controllers get ids 1..c, brokers c+1.., so the ids in a story read as in the docs. */
export function clusterScenario(spec: ClusterSpec = {}): Scenario {
  const controllerIds = spec.controllerIds ?? Array.from({ length: spec.controllers ?? 1 }, (_, i) => i + 1);
  const count = spec.brokerIds?.length ?? spec.brokerRacks?.length ?? spec.brokers ?? 3;
  const racks = spec.brokerRacks ?? Array.from({ length: count }, () => null);
  const brokerIds = spec.brokerIds ?? racks.map((_, i) => controllerIds.length + 1 + i);
  return {
    version: 1,
    seed: spec.seed ?? 1,
    nodes: [
      ...controllerIds.map((id) => ({ id, roles: ['controller' as const] })),
      ...brokerIds.map((id, i) => ({
        id,
        roles: ['broker' as const],
        ...(racks[i] ? { rack: racks[i]! } : {}),
      })),
    ],
    config: spec.config ?? {},
    network: { latencyMs: spec.latencyMs ?? 1, jitterMs: spec.jitterMs ?? 0 },
    topics: spec.topics ?? [],
  };
}

export class Driver {
  readonly sim: Simulation;
  constructor(scenario: Scenario) {
    this.sim = createSimulation(scenario);
  }

  /** Runs until the scenario's topics have leaders (the cluster has booted). */
  settle(maxMs = 20000): this {
    const want = this.sim.world.scenarioTopics.length;
    for (let t = 0; t < maxMs; t += 100) {
      this.sim.advance(100);
      const s = this.sim.snapshot();
      if (
        want === 0 ||
        (this.sim.world.scenarioTopics.length === 0 &&
          s.partitions.length > 0 &&
          s.partitions.every((p) => p.leader >= 0))
      )
        return this;
    }
    throw new Error(`the cluster did not settle within ${maxMs} ms`);
  }

  advance(ms: number): this {
    this.sim.advance(ms);
    return this;
  }

  /** Advances in small steps until `cond` holds; fails after `maxMs`. */
  until(cond: (d: this) => boolean, maxMs = 60000, stepMs = 10): this {
    for (let t = 0; t <= maxMs; t += stepMs) {
      if (cond(this)) return this;
      this.sim.advance(stepMs);
    }
    throw new Error(`condition not met within ${maxMs} ms (at ${this.sim.nowMs} ms)`);
  }

  do(command: Command): this {
    const r = this.sim.apply(command);
    if (!r.ok) throw new Error(`${command.type} refused: ${r.error}`);
    return this;
  }

  crash(nodeId: NodeId): this {
    return this.do({ type: 'crashNode', nodeId });
  }
  restart(nodeId: NodeId): this {
    return this.do({ type: 'restartNode', nodeId });
  }
  shutdown(nodeId: NodeId): this {
    return this.do({ type: 'shutdownNode', nodeId });
  }

  startConsumer(
    consumerId: string,
    groupId: string,
    topics: string[],
    config: Record<string, ConfigValue> = {},
  ): this {
    return this.do({ type: 'startConsumer', consumerId, groupId, topics, config });
  }

  produce(
    topic: string,
    value: string,
    acks: Acks = 'all',
    extra: Partial<Extract<Command, { type: 'produce' }>> = {},
  ): this {
    return this.do({ type: 'produce', topic, value, acks, key: null, partition: 0, ...extra });
  }

  partition(topic: string, p = 0): PartitionView {
    const v = this.sim.snapshot().partitions.find((x) => x.topic === topic && x.partition === p);
    if (!v) throw new Error(`no partition ${topic}-${p}`);
    return v;
  }

  entry(value: string): LedgerEntry {
    const e = this.sim.ledger().find((x) => x.value === value);
    if (!e) throw new Error(`no ledger entry with value ${value}`);
    return e;
  }

  events(type?: string): SimEvent[] {
    return this.sim.events().filter((e) => !type || e.type === type);
  }

  node(id: NodeId) {
    return this.sim.snapshot().nodes.find((n) => n.id === id)!;
  }
}

export function cluster(spec: ClusterSpec = {}): Driver {
  return new Driver(clusterScenario(spec));
}
