// Random fault schedules, as plain data: a cluster, then steps of (fault or write, advance). The
// property tests generate them with fast-check; this module runs one against the engine with the
// InvariantMonitor watching, and turns a failure into a story that replays without fast-check.

import type { Violation } from '../observe/invariants';
import { InvariantMonitor } from '../observe/invariants';
import type { Acks, Command, NodeId, Scenario } from '../model/types';
import { Driver, clusterScenario } from './driver';
import { itemAt } from '../model/arrays';

/** A fault or a write; node and partition choices are indices, resolved against the cluster at that moment. */
export type Action =
  | { type: 'crash' | 'restart' | 'shutdown'; pick: number }
  /** A node stopped (controlled or not) and restarted in the same instant (the restart is refused while a broker's controlled shutdown is still under way). */
  | { type: 'bounce'; pick: number; clean: boolean }
  /** kafka-leader-election for every partition: preferred, or unclean (records outside the ISR may be lost, and the event log says so). */
  | { type: 'elect'; unclean: boolean }
  | { type: 'cut'; from: number; to: number; oneWay: boolean }
  | { type: 'partition'; groups: number[] }
  | { type: 'isolate'; pick: number }
  | { type: 'heal' }
  | { type: 'produce'; partition: number; acks: Acks; count: number }
  | { type: 'alterConfig'; value: number }
  | { type: 'wait' };

export interface Step {
  action: Action;
  advanceMs: number;
}

export interface ClusterRun {
  seed: number;
  controllers: number;
  brokers: number;
  racks: boolean;
  partitions: number;
  /** eligible.leader.replicas.version: KIP-966 off (0) or on (1). */
  elr: 0 | 1;
  latencyMs: number;
  jitterMs: number;
  steps: Step[];
}

export interface ScheduleOptions {
  /** The monitor looks at the cluster after every command and at least this often in between. */
  observeEveryMs?: number;
  /**
   * One producer client per acks value for every produce step. Otherwise each acks=all record gets
   * a client of its own, so that no client ever has two of them in flight.
   */
  sharedProducer?: boolean;
  /** After the last step everything heals and restarts, then runs this long. */
  recoveryMs?: number;
  /**
   * A stopped node restarts only after this long. An answer to a request of the previous process
   * (a metadata fetch parked up to 500 ms) reaches the new one, which the engine mishandles (see
   * 'engine bugs the properties found'); 0 restarts at once.
   */
  minDownMs?: number;
}

export interface TimedCommand {
  atMs: number;
  command: Command;
}

const RACK_NAMES = ['a', 'b', 'c'];
export const TOPIC = 't';

/** Controllers 1..c, brokers after them; topic `t`: RF 3, min.insync.replicas 2, unclean election off. */
export function scenarioOf(run: ClusterRun): Scenario {
  return clusterScenario({
    seed: run.seed,
    controllers: run.controllers,
    brokerRacks: Array.from({ length: run.brokers }, (_, i) =>
      run.racks ? RACK_NAMES[i % RACK_NAMES.length]! : null,
    ),
    config: { 'eligible.leader.replicas.version': run.elr },
    latencyMs: run.latencyMs,
    jitterMs: run.jitterMs,
    topics: [
      {
        name: TOPIC,
        partitions: run.partitions,
        replicationFactor: 3,
        config: { 'min.insync.replicas': 2, 'unclean.leader.election.enable': false },
      },
    ],
  });
}

/** The commands an action stands for, given the cluster now (crash picks a running node, restart a stopped one). */
export function commandsFor(
  d: Driver,
  action: Action,
  stepIndex: number,
  opts: ScheduleOptions = {},
  mayRestart: (id: NodeId) => boolean = () => true,
): Command[] {
  const nodes = d.sim.snapshot().nodes;
  const ids = nodes.map((n) => n.id);
  const among = (list: NodeId[], i: number) => (list.length ? [list[i % list.length]!] : []);
  const running = nodes.filter((n) => n.state === 'running').map((n) => n.id);
  const down = nodes.filter((n) => n.state !== 'running' && mayRestart(n.id)).map((n) => n.id);
  switch (action.type) {
    case 'crash':
      return among(running, action.pick).map((nodeId) => ({ type: 'crashNode', nodeId }));
    case 'shutdown':
      return among(running, action.pick).map((nodeId) => ({ type: 'shutdownNode', nodeId }));
    case 'restart':
      return among(down, action.pick).map((nodeId) => ({ type: 'restartNode', nodeId }));
    case 'bounce':
      return among(running, action.pick).flatMap((nodeId): Command[] => [
        { type: action.clean ? 'shutdownNode' : 'crashNode', nodeId },
        { type: 'restartNode', nodeId },
      ]);
    case 'elect':
      return [{ type: 'electLeaders', electionType: action.unclean ? 'unclean' : 'preferred' }];
    case 'cut': {
      const from = itemAt(ids, action.from % ids.length);
      let to = itemAt(ids, action.to % ids.length);
      if (to === from) to = itemAt(ids, (action.to + 1) % ids.length);
      return [{ type: 'cutLink', from, to, oneWay: action.oneWay }];
    }
    case 'partition': {
      const groups: NodeId[][] = [[], [], []];
      ids.forEach((id, i) =>
        itemAt(groups, itemAt(action.groups, i % action.groups.length) % groups.length).push(id),
      );
      const nonEmpty = groups.filter((g) => g.length);
      return nonEmpty.length > 1 ? [{ type: 'partitionNetwork', groups: nonEmpty }] : [];
    }
    case 'isolate': {
      const controllers = nodes.filter((n) => n.roles.includes('controller')).map((n) => n.id);
      return among(controllers, action.pick).map((nodeId) => ({
        type: 'partitionNetwork',
        groups: [[nodeId], ids.filter((id) => id !== nodeId)],
      }));
    }
    case 'heal':
      return [{ type: 'healNetwork' }];
    case 'produce': {
      const partitions = d.sim.snapshot().topics.find((t) => t.name === TOPIC)?.partitions ?? 1;
      const base = {
        type: 'produce' as const,
        topic: TOPIC,
        key: null,
        acks: action.acks,
        partition: action.partition % partitions,
      };
      if (opts.sharedProducer || action.acks !== 'all')
        return [
          {
            ...base,
            value: `acks${action.acks}-${stepIndex}`,
            count: action.count,
            producerId: `producer-acks-${action.acks}`,
          },
        ];
      return Array.from({ length: action.count }, (_, k) => ({
        ...base,
        value: `acksall-${stepIndex}-${k}`,
        producerId: `producer-${stepIndex}-${k}`,
      }));
    }
    case 'alterConfig':
      // A metadata write through the quorum (refused while there is no active controller).
      return [
        {
          type: 'alterConfig',
          resourceType: 'cluster',
          configs: { 'log.retention.ms': 3600000 * action.value },
        },
      ];
    case 'wait':
      return [];
  }
}

/** Thrown when an invariant breaks: its message is the whole run as a story. */
export class InvariantViolation extends Error {
  constructor(
    message: string,
    readonly violations: Violation[],
    readonly scenario: Scenario,
    readonly commands: TimedCommand[],
  ) {
    super(message);
    this.name = 'InvariantViolation';
  }
}

/** A run in progress: applies commands, advances time, and has the monitor check every step. */
export class ScheduleRun {
  readonly monitor = new InvariantMonitor();
  readonly commands: TimedCommand[] = [];
  readonly d: Driver;
  private readonly observeEveryMs: number;
  private readonly minDownMs: number;
  /** When each stopped node was first seen stopped. */
  private readonly downSince = new Map<NodeId, number>();

  constructor(
    readonly scenario: Scenario,
    opts: ScheduleOptions = {},
  ) {
    this.d = new Driver(scenario);
    this.observeEveryMs = opts.observeEveryMs ?? 100;
    this.minDownMs = opts.minDownMs ?? 1000;
  }

  /** Whether a stopped node has been down long enough to restart (ScheduleOptions.minDownMs). */
  mayRestart = (id: NodeId): boolean => {
    const since = this.downSince.get(id);
    return since !== undefined && this.d.sim.nowMs - since >= this.minDownMs;
  };

  check(where: string): void {
    for (const n of this.d.sim.snapshot().nodes) {
      if (n.state === 'running') this.downSince.delete(n.id);
      else if (!this.downSince.has(n.id)) this.downSince.set(n.id, this.d.sim.nowMs);
    }
    const found = this.monitor.observe(this.d.sim);
    if (found.length)
      throw new InvariantViolation(this.report(where, found), found, this.scenario, [...this.commands]);
  }

  apply(command: Command): void {
    this.commands.push({ atMs: this.d.sim.nowMs, command });
    this.d.sim.apply(command); // a refused command (nothing to crash) is part of the schedule too
    this.check(`after ${command.type}`);
  }

  advance(ms: number): void {
    for (let left = ms; left > 0; left -= this.observeEveryMs) {
      this.d.advance(Math.min(this.observeEveryMs, left));
      this.check('while advancing');
    }
  }

  /** Advances until `cond` holds (checking as it goes), at most `maxMs`. */
  advanceUntil(cond: () => boolean, maxMs: number): void {
    for (let t = 0; t < maxMs && !cond(); t += 100) {
      this.d.advance(100);
      this.check('while advancing');
    }
  }

  /** Heals the network and lets the cluster recover, restarting every node that is or comes to be stopped. */
  recover(ms: number): void {
    this.apply({ type: 'healNetwork' });
    // A controlled shutdown under way completes during recovery: that node is restarted then.
    for (let t = 0; t < ms; t += this.observeEveryMs) {
      for (const n of this.d.sim.snapshot().nodes)
        if (n.state !== 'running' && this.mayRestart(n.id)) this.apply({ type: 'restartNode', nodeId: n.id });
      this.advance(Math.min(this.observeEveryMs, ms - t));
    }
  }

  private report(where: string, found: Violation[]): string {
    const events = this.d.sim
      .events()
      .filter((e) => e.type !== 'MetadataApplied')
      .slice(-30)
      .map((e) => `  ${e.timeMs} ms ${e.type}: ${e.message}`);
    return [
      `Invariant violated ${where} at ${this.d.sim.nowMs} ms:`,
      ...found.map((v) => `  [${v.invariant}] ${v.message}`),
      'Replay: replaySchedule(scenario, commands, untilMs) with',
      `  scenario = ${JSON.stringify(this.scenario)}`,
      `  commands = [\n${this.commands.map((c) => `    ${JSON.stringify(c)},`).join('\n')}\n  ]`,
      `  untilMs = ${this.d.sim.nowMs}`,
      'Last events:',
      ...events,
    ].join('\n');
  }
}

/** Replays a reported failure: advance to each command's time, apply it, and so on up to `untilMs`. */
export function replaySchedule(
  scenario: Scenario,
  commands: TimedCommand[],
  untilMs: number,
  opts: ScheduleOptions = {},
): ScheduleRun {
  const run = new ScheduleRun(scenario, opts);
  for (const c of commands) {
    run.advance(c.atMs - run.d.sim.nowMs);
    run.apply(c.command);
  }
  run.advance(untilMs - run.d.sim.nowMs);
  return run;
}

/** Settles the cluster, runs the steps, then heals and restarts everything; throws InvariantViolation. */
export function runClusterSchedule(run: ClusterRun, opts: ScheduleOptions = {}): ScheduleRun {
  const r = new ScheduleRun(scenarioOf(run), opts);
  r.d.settle();
  r.check('after settling');
  run.steps.forEach((step, i) => {
    for (const c of commandsFor(r.d, step.action, i, opts, r.mayRestart)) r.apply(c);
    r.advance(step.advanceMs);
  });
  r.recover(opts.recoveryMs ?? 60000);
  return r;
}

// ---- the quorum on its own ---------------------------------------------------------------

export interface QuorumRun {
  seed: number;
  controllers: number;
  brokers: number;
  latencyMs: number;
  jitterMs: number;
  steps: Step[];
}

/** Controller crashes, restarts and isolation, with metadata writes; brokers only add registrations and heartbeats. */
export function runQuorumSchedule(run: QuorumRun, opts: ScheduleOptions = {}): ScheduleRun {
  const scenario = clusterScenario({
    seed: run.seed,
    controllers: run.controllers,
    brokers: run.brokers,
    latencyMs: run.latencyMs,
    jitterMs: run.jitterMs,
  });
  const r = new ScheduleRun(scenario, opts);
  r.advanceUntil(() => r.d.sim.snapshot().nodes.every((n) => !n.fenced), 20000);
  run.steps.forEach((step, i) => {
    // Crashes and restarts hit controllers only, so a majority of voters is often down.
    const action = step.action;
    const controllers = r.d.sim.snapshot().nodes.filter((n) => n.roles.includes('controller'));
    if (action.type === 'crash') {
      const up = controllers.filter((n) => n.state === 'running');
      if (up.length) r.apply({ type: 'crashNode', nodeId: itemAt(up, action.pick % up.length).id });
    } else {
      for (const c of commandsFor(r.d, action, i, opts, r.mayRestart)) r.apply(c);
    }
    r.advance(step.advanceMs);
  });
  r.recover(opts.recoveryMs ?? 20000);
  return r;
}
