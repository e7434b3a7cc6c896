// "What if this zone goes dark?": for each rack, or a chosen set of brokers, the branch where it
// loses power now, run forward on a copy of the live simulation (never a formula): the partitions
// left offline, those under min.insync.replicas (acks=all refused), how long until every partition
// has a working leader again, and the acknowledged records the branch loses. The work is done in
// slices (WhatIfJob.run), so the worker keeps playing and answering the page in between.
import type { Command, NodeId, PartitionView, Simulation, Snapshot } from '../sim/types';

/** How far each branch runs: past fencing (broker.session.timeout.ms, 9 s) and the elections after it. */
export const WHAT_IF_HORIZON_MS = 30_000;
/** Virtual milliseconds a slice advances a branch before it looks at the wall clock again. */
const SLICE_MS = 1_000;
/** Partitions listed at most per outcome (the counts are exact). */
export const WHAT_IF_LISTED = 100;

/** What to lose: a rack (every node of it crashes at once) or a set of nodes. */
export type WhatIfTarget = { kind: 'rack'; rack: string } | { kind: 'nodes'; nodeIds: NodeId[] };

export interface WhatIfOutcome {
  target: WhatIfTarget;
  /** "Zone zone-a" or "Brokers 4, 7". */
  label: string;
  /** The nodes that crash in the branch. */
  nodeIds: NodeId[];
  /** The commands the branch applies at its start (what "Show me" sends). */
  commands: Command[];
  /** Partitions without a leader at the end (`topic-p`), the first WHAT_IF_LISTED; `offlineCount` counts all. */
  offline: string[];
  offlineCount: number;
  /** Partitions led at the end whose ISR is below min.insync.replicas: acks=all is refused (NOT_ENOUGH_REPLICAS). */
  underMinIsr: string[];
  underMinIsrCount: number;
  /** Partitions whose leader was lost (they had to elect a new one, or went offline). */
  leaderLostCount: number;
  /** Virtual ms after the loss until every partition had a working leader again; null: some never did within the horizon. */
  allLedAfterMs: number | null;
  /** Acknowledged records (acks=1 ones not yet copied to a surviving replica) the branch lost. */
  lostAcknowledged: number;
  /** Commands the engine refused, with its reason. */
  refused: string[];
}

export interface WhatIfResult {
  /** Virtual time of the live simulation the branches start from. */
  atMs: number;
  horizonMs: number;
  /** Worst first: offline, then under min ISR, then records lost, then time without leaders. */
  outcomes: WhatIfOutcome[];
}

const key = (p: PartitionView) => `${p.topic}-${p.partition}`;

/** min.insync.replicas of a topic in the snapshot (its override, else Kafka's default of 1). */
function minIsrOf(snapshot: Snapshot, topic: string): number {
  const value = Number(snapshot.topics.find((t) => t.name === topic)?.config['min.insync.replicas']);
  return Number.isInteger(value) && value >= 1 ? value : 1;
}

function labelOf(target: WhatIfTarget): string {
  if (target.kind === 'rack') return `Zone ${target.rack}`;
  return `${target.nodeIds.length === 1 ? 'Node' : 'Nodes'} ${target.nodeIds.join(', ')}`;
}

/** The commands that lose the target: loseZone for a rack, a crashNode of each running node of a set. */
export function whatIfCommands(snapshot: Snapshot, target: WhatIfTarget): Command[] {
  if (target.kind === 'rack') return [{ type: 'loseZone', rack: target.rack }];
  const running = new Set(snapshot.nodes.filter((n) => n.state === 'running').map((n) => n.id));
  return target.nodeIds.filter((id) => running.has(id)).map((id) => ({ type: 'crashNode', nodeId: id }));
}

/** Worst first, then by label, so equal outcomes keep a stable order. */
export function worstFirst(a: WhatIfOutcome, b: WhatIfOutcome): number {
  return (
    b.offlineCount - a.offlineCount ||
    b.underMinIsrCount - a.underMinIsrCount ||
    b.lostAcknowledged - a.lostAcknowledged ||
    (b.allLedAfterMs ?? Infinity) - (a.allLedAfterMs ?? Infinity) ||
    b.leaderLostCount - a.leaderLostCount ||
    a.label.localeCompare(b.label)
  );
}

interface Branch {
  target: WhatIfTarget;
  sim: Simulation;
  commands: Command[];
  nodeIds: NodeId[];
  refused: string[];
  startMs: number;
  eventsBefore: number;
  lostBefore: Set<number>;
  leaderLost: Set<string>;
}

/** The branches of one what-if question, run a slice at a time from a copy of `base`. */
export class WhatIfJob {
  private readonly atMs: number;
  private readonly base: Simulation;
  private readonly baseSnapshot: Snapshot;
  private readonly targets: WhatIfTarget[];
  private readonly horizonMs: number;
  private readonly outcomes: WhatIfOutcome[] = [];
  private branch: Branch | null = null;

  /** `base` is copied: the live simulation goes on untouched. */
  constructor(base: Simulation, targets: WhatIfTarget[], horizonMs = WHAT_IF_HORIZON_MS) {
    this.base = base.clone();
    this.atMs = base.nowMs;
    this.baseSnapshot = this.base.snapshot();
    this.targets = [...targets];
    this.horizonMs = horizonMs;
  }

  get total(): number {
    return this.outcomes.length + this.targets.length + (this.branch ? 1 : 0);
  }

  get done(): number {
    return this.outcomes.length;
  }

  /** Runs until `budgetOver()` says stop (checked after each slice) or every branch is done; true when done. */
  run(budgetOver: () => boolean): boolean {
    for (;;) {
      if (!this.branch) {
        const target = this.targets.shift();
        if (!target) return true;
        this.branch = this.start(target);
      }
      const b = this.branch;
      const endMs = b.startMs + this.horizonMs;
      while (b.sim.nowMs < endMs) {
        b.sim.advance(Math.min(SLICE_MS, endMs - b.sim.nowMs));
        if (b.sim.nowMs < endMs && budgetOver()) return false;
      }
      this.outcomes.push(this.finish(b));
      this.branch = null;
      if (budgetOver()) return this.targets.length === 0;
    }
  }

  result(): WhatIfResult {
    return { atMs: this.atMs, horizonMs: this.horizonMs, outcomes: [...this.outcomes].sort(worstFirst) };
  }

  private start(target: WhatIfTarget): Branch {
    // The last branch may take the base itself: no other needs it after.
    const sim = this.targets.length === 0 ? this.base : this.base.clone();
    const commands = whatIfCommands(this.baseSnapshot, target);
    const nodeIds =
      target.kind === 'rack'
        ? this.baseSnapshot.nodes
            .filter((n) => n.rack === target.rack && n.state === 'running')
            .map((n) => n.id)
        : commands.map((c) => (c.type === 'crashNode' ? c.nodeId : -1));
    const lost = new Set(nodeIds);
    const leaderLost = new Set(
      this.baseSnapshot.partitions.filter((p) => p.leader >= 0 && lost.has(p.leader)).map(key),
    );
    const lostBefore = new Set(sim.lostAcknowledged().map((e) => e.recordId));
    const eventsBefore = sim.eventCount();
    const refused: string[] = [];
    for (const command of commands) {
      const result = sim.apply(command);
      if (!result.ok) refused.push(`${command.type}: ${result.error}`);
    }
    return {
      target,
      sim,
      commands,
      nodeIds,
      refused,
      startMs: sim.nowMs,
      eventsBefore,
      lostBefore,
      leaderLost,
    };
  }

  private finish(b: Branch): WhatIfOutcome {
    const s = b.sim.snapshot();
    const down = new Set(s.nodes.filter((n) => n.state !== 'running').map((n) => n.id));
    const offline: string[] = [];
    const underMinIsr: string[] = [];
    for (const p of s.partitions) {
      if (p.leader < 0 || down.has(p.leader)) offline.push(key(p));
      else if (p.isr.length < minIsrOf(s, p.topic)) underMinIsr.push(key(p));
    }
    // The last election of a partition that lost its leader is when it was led again.
    let allLedAfterMs: number | null = offline.length > 0 ? null : 0;
    if (offline.length === 0) {
      for (const e of b.sim.eventsSince(b.eventsBefore)) {
        if (e.type !== 'LeaderElected' || !b.leaderLost.has(`${e.topic}-${e.partition}`)) continue;
        allLedAfterMs = Math.max(allLedAfterMs ?? 0, e.timeMs - b.startMs);
      }
    }
    const lostAcknowledged = b.sim.lostAcknowledged().filter((e) => !b.lostBefore.has(e.recordId)).length;
    return {
      target: b.target,
      label: labelOf(b.target),
      nodeIds: b.nodeIds,
      commands: b.commands,
      offline: offline.slice(0, WHAT_IF_LISTED),
      offlineCount: offline.length,
      underMinIsr: underMinIsr.slice(0, WHAT_IF_LISTED),
      underMinIsrCount: underMinIsr.length,
      leaderLostCount: b.leaderLost.size,
      allLedAfterMs,
      lostAcknowledged,
      refused: b.refused,
    };
  }
}
