// The fuzz suite on a budget that fits `npm test`: a few hundred generated cases of each kind
// (scenario files, command runs on every preset with invariants watched and replay checked,
// session links), drawn by the generators of `npm run fuzz` (scripts/fuzzCases.ts), which runs
// thousands. Case i of a kind has the seed SEED + i; a failure names it, and
// `npm run fuzz -- --kind K --seed SEED --case i` replays it alone. FUZZ_CASES=N runs N of each.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { issueProblems, linkFor, nastyValue, runCase, type Kind } from '../../scripts/fuzzCases';
import { presets } from './presets';
import {
  decodeSession,
  encodeSession,
  newSession,
  sessionFromJson,
  type DecodeResult,
  type Session,
} from './session';

const SEED = Number(process.env.FUZZ_SEED ?? 20261201);
const CASES: Record<Kind, number> = {
  files: Number(process.env.FUZZ_CASES ?? 400),
  commands: Number(process.env.FUZZ_CASES ?? 200),
  links: Number(process.env.FUZZ_CASES ?? 400),
};

/** Every case of `kind` from 0 to count: the ones whose outcome is a defect, with their replay line. */
function defectsOf(kind: Kind, count: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const what = runCase(kind, SEED + i);
    if (what) out.push(`--kind ${kind} --seed ${SEED} --case ${i}: ${what}`);
  }
  return out;
}

/** A decode result is a session, or issues each with a path and a short message. */
function wellFormed(result: DecodeResult): string | null {
  return result.ok ? null : issueProblems(result.issues);
}

describe('fuzzing (the outcome is accepted and runs, or refused with paths and short messages)', () => {
  for (const kind of ['files', 'commands', 'links'] as const)
    // About 30 s for the three on this 2-core machine; the timeout leaves room for a busy one.
    it(`${CASES[kind]} generated ${kind} (seed ${SEED})`, { timeout: 600_000 }, () => {
      expect(defectsOf(kind, CASES[kind])).toEqual([]);
    });

  it(`mutated link payloads decode or are refused with paths (fast-check seed ${SEED})`, () => {
    const base: Session = {
      ...newSession(presets['three-brokers']!.scenario),
      actions: [
        { atMs: 1000, command: { type: 'crashNode', nodeId: 2 } },
        { atMs: 4000, command: { type: 'produce', topic: 'demo', value: 'v', count: 3 } },
      ],
      positionMs: 6000,
    };
    const link = encodeSession(base);
    const mutation = fc.oneof(
      fc.record({
        kind: fc.constant('flip' as const),
        at: fc.nat(),
        char: fc.string({ minLength: 1, maxLength: 1, unit: 'binary' }),
      }),
      fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
      fc.record({
        kind: fc.constant('insert' as const),
        at: fc.nat(),
        text: fc.string({ maxLength: 8, unit: 'binary' }),
      }),
    );
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (mutations) => {
        let payload = link;
        for (const m of mutations) {
          const at = m.at % (payload.length + 1);
          if (m.kind === 'flip') payload = payload.slice(0, at) + m.char + payload.slice(at + 1);
          else if (m.kind === 'cut') payload = payload.slice(0, at);
          else payload = payload.slice(0, at) + m.text + payload.slice(at);
        }
        expect(wellFormed(decodeSession(payload))).toBeNull();
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it(`any JSON value in a link or a file is decoded or refused with paths (fast-check seed ${SEED + 1})`, () => {
    fc.assert(
      fc.property(nastyValue, (value) => {
        const json = JSON.stringify(value) ?? 'null';
        expect(wellFormed(decodeSession(linkFor(json)))).toBeNull();
        expect(wellFormed(sessionFromJson(json))).toBeNull();
      }),
      { seed: SEED + 1, numRuns: 300 },
    );
  });
});
