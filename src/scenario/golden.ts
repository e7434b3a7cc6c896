// Golden runs: the behaviour of the engine, written down. Every example scenario, every preset and
// every lesson's scene is run for a fixed stretch of simulated time; the event log and the state
// hash at fixed instants are kept in golden/*.json. A change in behaviour shows as a diff there.
//
//   npm run golden          regenerate golden/ (refuses when ENGINE_VERSION was not bumped)
//   src/scenario/golden.test.ts  fails when a run no longer matches its golden file
//
// golden/versions.json maps each ENGINE_VERSION to a digest of all golden files, so a version
// keeps one behaviour: regenerating under an unchanged version with a different result is refused.
import { createSimulation, ENGINE_VERSION } from '../sim';
import type { Scenario } from '../sim/types';
import { hashValue } from '../sim';
import { presets } from './presets';
import { lastStepMs, SETTLE_MS } from './report';
import { lessons } from './lessons';

/** How often the state hash is taken, in simulated ms (the large preset: every 30 s). */
export const HASH_EVERY_MS = 5_000;
/** How long a preset or a lesson scene runs (an example runs to its last step plus the runner's SETTLE_MS). */
export const RUN_MS = 60_000;

export interface GoldenRun {
  name: string;
  engineVersion: string;
  untilMs: number;
  /** The state hash every hashEveryMs, from time 0 to untilMs. */
  hashes: { atMs: number; stateHash: string }[];
  /** The event log at untilMs, one compact JSON line an event. */
  events: string[];
}

export interface GoldenCase {
  name: string;
  scenario: Scenario;
  untilMs: number;
  /** The state hash every so many ms: the large preset's world takes about a second to hash. */
  hashEveryMs: number;
}

/** The cases: `examples` are the files of examples/ (name without .json, parsed scenario). */
export function goldenCases(examples: readonly { name: string; scenario: Scenario }[]): GoldenCase[] {
  const cases: GoldenCase[] = [];
  for (const { name, scenario } of examples) {
    cases.push({
      name: `example-${name}`,
      scenario,
      untilMs: lastStepMs(scenario) + SETTLE_MS,
      hashEveryMs: HASH_EVERY_MS,
    });
  }
  for (const [id, preset] of Object.entries(presets)) {
    const hashEveryMs = preset.scenario.nodes.length > 12 ? 30_000 : HASH_EVERY_MS;
    cases.push({ name: `preset-${id}`, scenario: preset.scenario, untilMs: RUN_MS, hashEveryMs });
  }
  for (const lesson of lessons) {
    cases.push({
      name: `lesson-${lesson.id}`,
      scenario: lesson.scenario,
      untilMs: RUN_MS,
      hashEveryMs: HASH_EVERY_MS,
    });
  }
  return cases;
}

export function runGolden(c: GoldenCase): GoldenRun {
  const sim = createSimulation(c.scenario);
  const hashes: GoldenRun['hashes'] = [{ atMs: sim.nowMs, stateHash: sim.stateHash() }];
  while (sim.nowMs < c.untilMs) {
    sim.advance(Math.min(c.hashEveryMs, c.untilMs - sim.nowMs));
    hashes.push({ atMs: sim.nowMs, stateHash: sim.stateHash() });
  }
  return {
    name: c.name,
    engineVersion: ENGINE_VERSION,
    untilMs: c.untilMs,
    hashes,
    events: sim.events().map((event) => JSON.stringify(event)),
  };
}

/** The file's text: stable, one event a line, so a diff reads as a list of changed events. */
export function goldenText(run: GoldenRun): string {
  const { events, hashes, ...head } = run;
  const lines = [
    '{',
    ...Object.entries(head).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)},`),
    '  "hashes": [',
    hashes.map((h) => `    ${JSON.stringify(h)}`).join(',\n'),
    '  ],',
    '  "events": [',
    events.map((e) => `    ${JSON.stringify(e)}`).join(',\n'),
    '  ]',
    '}',
  ];
  return `${lines.join('\n')}\n`;
}

/** One digest over every golden file's text, in name order. */
export function goldenDigest(texts: ReadonlyMap<string, string>): string {
  return hashValue([...texts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
