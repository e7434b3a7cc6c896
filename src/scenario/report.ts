// The command-line runner's report (npm run sim): what a headless run holds, chosen by the caller,
// written as JSON in pieces so a long run's event log and ledger never sit in one giant string.
import type { Simulation } from '../sim';
import type { LedgerEntry, Scenario, SimEvent } from '../sim/types';

/** The fields a report may hold, in the order they are written. */
export const REPORT_FIELDS = [
  'summary',
  'snapshot',
  'events',
  'ledger',
  'lostAcknowledged',
  'stateHash',
] as const;
export type ReportField = (typeof REPORT_FIELDS)[number];
/** What a report holds when the caller does not say: everything but the summary. */
export const DEFAULT_FIELDS: readonly ReportField[] = [
  'snapshot',
  'events',
  'ledger',
  'lostAcknowledged',
  'stateHash',
];

/** How long to run past the scenario's last scripted step (or time 0), so its effects play out. */
export const SETTLE_MS = 30_000;
/** The furthest a run goes without an explicit --until: a scenario with a step far ahead must say how far. */
export const MAX_DEFAULT_UNTIL_MS = 60 * 60 * 1000;

export interface ReportOptions {
  fields: readonly ReportField[];
  /** Only events of these types (all when null). */
  eventTypes: ReadonlySet<string> | null;
  /** Indent by two spaces (compact, one line, when false). */
  indent: boolean;
}

/** The time of the scenario's last scripted step (0 without a script). */
export function lastStepMs(scenario: Scenario): number {
  const steps = scenario.script ?? [];
  return steps.length ? Math.max(...steps.map((step) => step.atMs)) : 0;
}

/** The run's default end: the last scripted step plus SETTLE_MS, or a message when that is over an hour. */
export function defaultUntil(scenario: Scenario): { untilMs: number } | { error: string } {
  const lastMs = lastStepMs(scenario);
  const untilMs = lastMs + SETTLE_MS;
  if (untilMs <= MAX_DEFAULT_UNTIL_MS) return { untilMs };
  return {
    error:
      `the scenario's last script step is at ${lastMs} ms, so the run would simulate ${untilMs} ms ` +
      `(more than ${MAX_DEFAULT_UNTIL_MS} ms, an hour, without being asked): pass --until MS to say how far`,
  };
}

export interface RunSummary {
  timeMs: number;
  stateHash: string;
  /**
   * Every event logged; byType counts those kept, and `dropped` (present once the event log dropped
   * its oldest, past EVENTS_KEPT) says how many are not.
   */
  events: { total: number; dropped?: number; byType: Record<string, number> };
  records: {
    produced: number;
    acknowledged: number;
    failed: number;
    pending: number;
    lostAcknowledged: number;
    /** Failed sends the ledger no longer keeps (past LEDGER_FAILED_KEPT a producer), when there are some. */
    failedDropped?: number;
    /** acks=0 sends the ledger no longer keeps (past LEDGER_ACKS0_KEPT a producer), when there are some. */
    acks0Dropped?: number;
  };
  /** Offline: no leader (-1); under-replicated: an ISR smaller than the replica set. */
  partitions: { total: number; offline: number; underReplicated: number };
}

export function summarize(sim: Simulation): RunSummary {
  const byType: Record<string, number> = Object.create(null) as Record<string, number>;
  const events = sim.events();
  for (const event of events) byType[event.type] = (byType[event.type] ?? 0) + 1;
  const records = { produced: 0, acknowledged: 0, failed: 0, pending: 0, lostAcknowledged: 0 };
  for (const entry of sim.ledger()) {
    records.produced++;
    if (entry.status === 'acked') records.acknowledged++;
    else if (entry.status === 'failed') records.failed++;
    else records.pending++;
  }
  records.lostAcknowledged = sim.lostAcknowledged().length;
  const failedDropped = [...sim.failedDropped().values()].reduce((a, b) => a + b, 0);
  const acks0Dropped = [...sim.acks0Dropped().values()].reduce((a, b) => a + b, 0);
  const dropped = sim.eventsDropped();
  const snapshot = sim.snapshot();
  return {
    timeMs: sim.nowMs,
    stateHash: sim.stateHash(),
    events: {
      total: sim.eventCount(),
      ...(dropped > 0 ? { dropped } : {}),
      byType: Object.fromEntries(Object.entries(byType).sort()),
    },
    records: {
      ...records,
      ...(failedDropped > 0 ? { failedDropped } : {}),
      ...(acks0Dropped > 0 ? { acks0Dropped } : {}),
    },
    partitions: {
      total: snapshot.partitions.length,
      offline: snapshot.partitions.filter((p) => p.leader === -1).length,
      underReplicated: snapshot.partitions.filter((p) => p.isr.length < p.replicas.length).length,
    },
  };
}

/**
 * The report as one JSON object, in pieces: array by array and element by element, so a caller can
 * write a long run's report without holding it whole. The concatenated pieces parse as JSON.
 */
export function* reportPieces(sim: Simulation, options: ReportOptions): Generator<string> {
  const pad = (depth: number) => (options.indent ? `\n${'  '.repeat(depth)}` : '');
  const json = (value: unknown, depth: number) =>
    options.indent ? JSON.stringify(value, null, 2).replaceAll('\n', pad(depth)) : JSON.stringify(value);
  const sep = options.indent ? ': ' : ':';
  function* array(items: readonly unknown[]): Generator<string> {
    if (items.length === 0) return yield '[]';
    yield '[';
    for (let i = 0; i < items.length; i++) yield `${i ? ',' : ''}${pad(2)}${json(items[i], 2)}`;
    yield `${pad(1)}]`;
  }
  const fields = REPORT_FIELDS.filter((field) => options.fields.includes(field));
  yield '{';
  for (const [i, field] of fields.entries()) {
    yield `${i ? ',' : ''}${pad(1)}${JSON.stringify(field)}${sep}`;
    switch (field) {
      case 'summary':
        yield json(summarize(sim), 1);
        break;
      case 'snapshot':
        yield json(sim.snapshot(), 1);
        break;
      case 'events': {
        const types = options.eventTypes;
        const events: readonly SimEvent[] = sim.events();
        yield* array(types ? events.filter((e) => types.has(e.type)) : events);
        break;
      }
      case 'ledger':
        yield* array(sim.ledger() as readonly LedgerEntry[]);
        break;
      case 'lostAcknowledged':
        yield* array(sim.lostAcknowledged());
        break;
      case 'stateHash':
        yield JSON.stringify(sim.stateHash());
        break;
    }
  }
  yield `${fields.length ? pad(0) : ''}}\n`;
}

/** The fields named by --only (a comma list), or the problem with it. */
export function parseFields(list: string): { fields: ReportField[] } | { error: string } {
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !(REPORT_FIELDS as readonly string[]).includes(name));
  if (unknown.length)
    return {
      error: `--only: unknown field ${unknown.map((n) => JSON.stringify(n)).join(', ')}; the fields are ${REPORT_FIELDS.join(', ')}`,
    };
  if (names.length === 0) return { error: `--only: name at least one of ${REPORT_FIELDS.join(', ')}` };
  return { fields: names as ReportField[] };
}
