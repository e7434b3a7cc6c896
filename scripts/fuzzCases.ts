// The generated inputs of the fuzz suite and the checks on their outcomes, shared by `npm run fuzz`
// (scripts/fuzz.ts: thousands of cases under a watchdog) and `npm test`
// (src/scenario/fuzz.test.ts: a few hundred of each kind). A case is one fast-check sample drawn
// with the seed `seed + index`, so a failure replays from its seed alone.
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { deflateSync, strToU8 } from 'fflate';
import { createSimulation, ScenarioError, type Scenario } from '../src/sim';
import type { Command } from '../src/sim/types';
import { presets } from '../src/scenario/presets';
import {
  crc32Hex,
  decodeSession,
  newSession,
  replaySession,
  toBase64Url,
  type Session,
} from '../src/scenario/session';

export const KINDS = ['files', 'commands', 'links'] as const;
export type Kind = (typeof KINDS)[number];
/**
 * Wall-clock ms one case may take before it counts as a hang: a command run on the two-region
 * example takes about 20 s on a busy 2-core machine; a case that stops simulated time never ends.
 */
export const CASE_TIMEOUT_MS = 60_000;
/** A case slower than this (beyond what its scene itself costs) is reported as slow. */
export const SLOW_CASE_MS = 5_000;
export const MAX_MESSAGE_CHARS = 400;

export interface Defect {
  kind: Kind;
  index: number;
  seed: number;
  what: string;
}

// ---- inputs ------------------------------------------------------------------------------------

const scenes: { name: string; scenario: Scenario }[] = [
  ...Object.entries(presets)
    .filter(([name]) => name !== 'large')
    .map(([name, p]) => ({ name, scenario: p.scenario })),
  // The examples, read from the working directory (npm run fuzz runs at the repository's root).
  ...readdirSync('examples')
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ name: f, scenario: JSON.parse(readFileSync(`examples/${f}`, 'utf8')) as Scenario })),
];

/** Names a careless or hostile writer might use for keys. */
export const nastyKey = fc.constantFrom(
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '',
  '💥',
  'k'.repeat(300),
);
/** Values of every JSON kind and the limits: huge strings, deep nesting, prototype names. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    0,
    -1,
    1,
    1e308,
    -0,
    2 ** 53,
    0.5,
    2 ** 31,
    '',
    'x'.repeat(100_000),
    'ünïcødé ✓',
    null,
    true,
    [],
    {},
  ),
  fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty'),
  fc.dictionary(nastyKey, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  // Thousands of levels: far deeper than a validator may recurse, and still within what the
  // harness's own JSON.stringify can write on a test runner's stack.
  fc.integer({ min: 50, max: 3000 }).map((depth) => {
    let v: unknown = 1;
    for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { k: v };
    return v;
  }),
);

function paths(
  value: unknown,
  path: (string | number)[] = [],
  out: (string | number)[][] = [],
): (string | number)[][] {
  out.push(path);
  if (typeof value === 'object' && value !== null)
    for (const [k, v] of Object.entries(value))
      paths(v, [...path, Array.isArray(value) ? Number(k) : k], out);
  return out;
}

function mutate(
  value: unknown,
  path: (string | number)[],
  replacement: unknown,
  op: 'set' | 'add' | 'delete',
  key: string,
): unknown {
  const copy = structuredClone(value);
  if (path.length === 0) return replacement;
  let at = copy as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (op === 'delete') delete at[last];
  else if (op === 'add' && typeof at[last] === 'object' && at[last] !== null)
    Object.defineProperty(at[last], key, {
      value: replacement,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else at[last] = replacement;
  return copy;
}

const fileCase = fc
  .record({
    scene: fc.nat(),
    mutations: fc.array(
      fc.record({
        path: fc.nat(),
        value: nastyValue,
        op: fc.constantFrom('set', 'set', 'add', 'delete'),
        key: nastyKey,
      }),
      { minLength: 1, maxLength: 3 },
    ),
  })
  .map(({ scene, mutations }) => {
    let value: unknown = scenes[scene % scenes.length]!.scenario;
    for (const m of mutations) {
      const all = paths(value);
      // A mutation the harness cannot make (its path vanished under an earlier one) is skipped.
      try {
        value = mutate(value, all[m.path % all.length]!, m.value, m.op as 'set' | 'add' | 'delete', m.key);
      } catch {
        continue;
      }
    }
    return value;
  });

/** Commands built from the scene's own names and ids, with now and then a nasty value in a field. */
function commandArb(scenario: Scenario): fc.Arbitrary<Command> {
  const nodeIds = scenario.nodes.map((n) => n.id);
  const topics = (scenario.topics ?? []).map((t) => t.name);
  const node = fc.oneof(
    { weight: 9, arbitrary: fc.constantFrom(...nodeIds) },
    { weight: 1, arbitrary: fc.integer({ min: -2, max: 70 }) },
  );
  const topic = fc.oneof(
    { weight: 9, arbitrary: fc.constantFrom(...(topics.length ? topics : ['t'])) },
    { weight: 1, arbitrary: fc.constantFrom('__consumer_offsets', 'nope', '') },
  );
  const id = fc.constantFrom('c1', 'c2', 'constructor', 'toString', '__proto__', 'g');
  const base: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
    fc.record({ type: fc.constantFrom('crashNode', 'restartNode', 'shutdownNode'), nodeId: node }),
    fc.record({
      type: fc.constant('partitionNetwork'),
      groups: fc
        .shuffledSubarray(nodeIds, { minLength: 1 })
        .map((ids) => [ids, nodeIds.filter((n) => !ids.includes(n))].filter((g) => g.length)),
    }),
    fc.record({ type: fc.constant('cutLink'), from: node, to: node }),
    fc.record({ type: fc.constant('healNetwork') }),
    fc.record({
      type: fc.constant('createTopic'),
      name: fc.constantFrom('new', 'new2', 'constructor', 'a.b'),
      partitions: fc.integer({ min: 0, max: 20 }),
      replicationFactor: fc.integer({ min: 0, max: 5 }),
    }),
    fc.record({
      type: fc.constant('alterConfig'),
      resource: fc.constant('topic'),
      name: topic,
      set: fc.record({ 'min.insync.replicas': fc.integer({ min: 0, max: 4 }) }),
    }),
    fc.record({
      type: fc.constant('produce'),
      topic,
      value: fc.constantFrom('v', ''),
      acks: fc.constantFrom('0', '1', 'all', 0, 1, -1),
      count: fc.integer({ min: 1, max: 200 }),
    }),
    fc.record({
      type: fc.constant('electLeaders'),
      electionType: fc.constantFrom('preferred', 'unclean'),
      partitions: fc.constant(topics.length ? [{ topic: topics[0], partition: 0 }] : []),
    }),
    fc.record({
      type: fc.constant('startProducer'),
      producerId: id,
      topic,
      ratePerSec: fc.integer({ min: 1, max: 200 }),
      acks: fc.constantFrom('1', 'all'),
    }),
    fc.record({ type: fc.constant('stopProducer'), producerId: id }),
    fc.record({
      type: fc.constant('startConsumer'),
      groupId: id,
      consumerId: id,
      topics: fc.constant(topics),
    }),
    fc.record({ type: fc.constant('stopConsumer'), consumerId: id }),
  );
  return fc
    .tuple(
      base,
      fc.option(
        fc.tuple(fc.constantFrom('nodeId', 'topic', 'count', 'acks', 'partitions', 'config'), nastyValue),
        { freq: 8 },
      ),
    )
    .map(
      ([command, nasty]) => (nasty ? { ...command, [nasty[0]]: nasty[1] } : command) as unknown as Command,
    );
}

const commandCase = fc.nat().chain((scene) => {
  const { scenario } = scenes[scene % scenes.length]!;
  return fc.record({
    scene: fc.constant(scene % scenes.length),
    steps: fc.array(
      fc.record({ command: commandArb(scenario), advanceMs: fc.constantFrom(0, 0, 50, 500, 3000, 10_000) }),
      { minLength: 1, maxLength: 12 },
    ),
  });
});

// ---- checks ------------------------------------------------------------------------------------

export function issueProblems(issues: readonly { path: string; message: string }[]): string | null {
  if (issues.length === 0) return 'refused with no issues';
  for (const issue of issues) {
    if (typeof issue.path !== 'string' || issue.path === '')
      return `an issue without a path: ${issue.message.slice(0, 120)}`;
    if (issue.message.length > MAX_MESSAGE_CHARS)
      return `a ${issue.message.length}-character message at ${issue.path.slice(0, 80)}`;
    if (issue.message.includes('[object Object]'))
      return `"[object Object]" in the message at ${issue.path}: ${issue.message.slice(0, 120)}`;
  }
  return null;
}

function errorProblems(error: string): string | null {
  if (error.length > MAX_MESSAGE_CHARS) return `a ${error.length}-character refusal: ${error.slice(0, 100)}…`;
  if (error.includes('[object Object]')) return `"[object Object]" in a refusal: ${error.slice(0, 160)}`;
  return null;
}

function plain(sim: ReturnType<typeof createSimulation>): string | null {
  try {
    structuredClone(sim.snapshot());
    return null;
  } catch (error) {
    return `the snapshot is not plain data (${String(error).slice(0, 120)})`;
  }
}

function runFile(value: unknown): string | null {
  let sim;
  try {
    sim = createSimulation(value as Scenario);
  } catch (error) {
    if (error instanceof ScenarioError) return issueProblems(error.issues);
    return `createSimulation threw ${String(error).slice(0, 160)}`;
  }
  try {
    sim.advance(5_000);
  } catch (error) {
    return `advance threw ${String(error).slice(0, 160)}`;
  }
  return plain(sim);
}

/** A command run: a scene (index into the scenes) and steps of (command, then advance). */
export interface CommandCase {
  scene: number;
  steps: { command: Command; advanceMs: number }[];
}

function runCommands({ scene, steps }: CommandCase): string | null {
  const { scenario } = scenes[scene]!;
  const sim = createSimulation(scenario).watchInvariants();
  /** The steps whose command was accepted: the replay applies those alone, with the same advances. */
  const accepted = new Set<number>();
  for (const [i, step] of steps.entries()) {
    const before = sim.stateHash();
    let result;
    try {
      result = sim.apply(step.command);
    } catch (error) {
      return `step ${i}: apply threw ${String(error).slice(0, 160)}`;
    }
    if (result.ok) accepted.add(i);
    else {
      const problem = errorProblems(result.error);
      if (problem) return `step ${i} (${String((step.command as { type?: unknown }).type)}): ${problem}`;
      if (sim.stateHash() !== before)
        return `step ${i}: a refused ${String((step.command as { type?: unknown }).type)} changed the state (${result.error.slice(0, 100)})`;
    }
    try {
      sim.advance(step.advanceMs);
    } catch (error) {
      return `step ${i}: advance threw ${String(error).slice(0, 160)}`;
    }
  }
  const violations = sim.violations();
  if (violations.length)
    return `invariant ${violations[0]!.invariant}: ${violations[0]!.message.slice(0, 200)}`;
  const problem = plain(sim);
  if (problem) return problem;
  // Replay determinism: the accepted commands alone, at the same instants, give the same state
  // (a refused command left no trace, not even in the seeded generator).
  const again = createSimulation(scenario);
  for (const [i, step] of steps.entries()) {
    if (accepted.has(i) && !again.apply(step.command).ok) return `step ${i}: refused on replay`;
    again.advance(step.advanceMs);
  }
  if (again.stateHash() !== sim.stateHash())
    return 'replaying the accepted commands gives another state hash';
  return null;
}

function runLink(value: unknown): string | null {
  let session: Session;
  const text = JSON.stringify(value) ?? 'null';
  try {
    // The page's codec on a link carrying this JSON (checksum made right, so the JSON itself is judged).
    const result = decodeSession(linkFor(text));
    if (!result.ok) return issueProblems(result.issues);
    session = result.session;
  } catch (error) {
    return `decodeSession threw ${String(error).slice(0, 160)}`;
  }
  try {
    const bounded = { ...session, positionMs: Math.min(session.positionMs, 10_000) };
    bounded.actions = bounded.actions.filter((a) => a.atMs <= bounded.positionMs);
    return plain(replaySession(bounded).sim);
  } catch (error) {
    return `replaying an accepted link threw ${String(error).slice(0, 160)}`;
  }
}

/** A link payload carrying `json`, its checksum right, so that the JSON itself is judged. */
export function linkFor(json: string): string {
  const bytes = strToU8(json);
  return `1.${crc32Hex(bytes)}.${toBase64Url(deflateSync(bytes))}`;
}

const linkCase = fc
  .record({ path: fc.nat(), value: nastyValue, op: fc.constantFrom('set', 'add', 'delete'), key: nastyKey })
  .map(({ path, value, op, key }) => {
    const base: Session = {
      ...newSession(scenes[0]!.scenario),
      actions: [{ atMs: 1000, command: { type: 'crashNode', nodeId: 4 } }],
      positionMs: 5000,
    };
    const all = paths(base);
    return mutate(base, all[path % all.length]!, value, op as 'set' | 'add' | 'delete', key);
  });

/** Wall ms per simulated second of each scene, with invariants watched: measured once per thread. */
const sceneCost = new Map<number, number>();

function msPerSimulatedSecond(scene: number): number {
  let cost = sceneCost.get(scene);
  if (cost === undefined) {
    const started = Date.now();
    createSimulation(scenes[scene]!.scenario).watchInvariants().advance(20_000);
    cost = (Date.now() - started) / 20;
    sceneCost.set(scene, cost);
  }
  return cost;
}

/**
 * The wall time a case may take before it is slow: SLOW_CASE_MS, and for a command run also three
 * times what its scene costs for the simulated time it runs, twice (the run and its replay). The
 * two-region example costs a few seconds a simulated minute whatever the commands: that is the
 * scene, not the input.
 */
export function slowAfterMs(kind: Kind, seed: number): number {
  if (kind !== 'commands') return SLOW_CASE_MS;
  const { scene, steps } = sampleCase(kind, seed) as CommandCase;
  const simulatedSeconds = steps.reduce((sum, step) => sum + step.advanceMs, 0) / 1000;
  return SLOW_CASE_MS + 3 * 2 * simulatedSeconds * msPerSimulatedSecond(scene);
}

/** The input of one case: a scenario file, a command run or a session value. */
export function sampleCase(kind: Kind, seed: number): unknown {
  const sample = <T>(arb: fc.Arbitrary<T>) => fc.sample(arb, { seed, numRuns: 1 })[0];
  if (kind === 'files') return sample(fileCase);
  if (kind === 'commands') return sample(commandCase);
  return sample(linkCase);
}

/** What is wrong with the outcome of one case, or null when it is accepted and runs, or well refused. */
export function runCase(kind: Kind, seed: number): string | null {
  const input = sampleCase(kind, seed);
  if (kind === 'files') return runFile(input);
  if (kind === 'commands') return runCommands(input as CommandCase);
  return runLink(input);
}
