import { describe, expect, it } from 'vitest';
import { createSimulation } from '../sim';
import { presets } from './presets';
import {
  DEFAULT_FIELDS,
  defaultUntil,
  MAX_DEFAULT_UNTIL_MS,
  parseFields,
  summarize,
  reportPieces,
  SETTLE_MS,
} from './report';

function report(options: Parameters<typeof reportPieces>[1]) {
  const sim = createSimulation(presets.default.scenario);
  sim.advance(20_000);
  const pieces = [...reportPieces(sim, options)];
  return { sim, text: pieces.join(''), pieces };
}

describe('the runner report (npm run sim)', () => {
  it('holds by default what it always held, compact, and parses as the engine answers', () => {
    const { sim, text, pieces } = report({ fields: DEFAULT_FIELDS, eventTypes: null, indent: false });
    expect(text.split('\n')).toHaveLength(2); // one line, and the final newline
    expect(JSON.parse(text)).toEqual(
      JSON.parse(
        JSON.stringify({
          snapshot: sim.snapshot(),
          events: sim.events(),
          ledger: sim.ledger(),
          lostAcknowledged: sim.lostAcknowledged(),
          stateHash: sim.stateHash(),
        }),
      ),
    );
    // Written element by element: no piece holds the whole event log.
    expect(pieces.length).toBeGreaterThan(sim.events().length);
  });

  it('indents on request, to the same value', () => {
    const compact = report({ fields: DEFAULT_FIELDS, eventTypes: null, indent: false }).text;
    const indented = report({ fields: DEFAULT_FIELDS, eventTypes: null, indent: true }).text;
    expect(indented).toContain('\n  "events": [\n    {\n      "seq": ');
    expect(JSON.parse(indented)).toEqual(JSON.parse(compact));
  });

  it('--only picks fields, --events filters the event log, --summary counts', () => {
    const { sim, text } = report({
      fields: ['events', 'stateHash'],
      eventTypes: new Set(['BrokerRegistered']),
      indent: false,
    });
    const parsed = JSON.parse(text) as { events: { type: string }[]; stateHash: string };
    expect(Object.keys(parsed)).toEqual(['events', 'stateHash']);
    expect(parsed.events.length).toBe(sim.events().filter((e) => e.type === 'BrokerRegistered').length);
    expect(parsed.events.length).toBeGreaterThan(0);
    const summary = summarize(sim);
    expect(summary.events.total).toBe(sim.events().length);
    expect(summary.events.byType.BrokerRegistered).toBe(parsed.events.length);
    expect(summary.records.produced).toBe(sim.ledger().length);
    expect(summary.partitions).toEqual({
      total: sim.snapshot().partitions.length,
      offline: 0,
      underReplicated: 0,
    });
    expect(summary.stateHash).toBe(parsed.stateHash);
  });

  it('names unknown fields, and asks for --until when the last step is far ahead', () => {
    expect(parseFields('snapshot,ledgr')).toEqual({
      error:
        '--only: unknown field "ledgr"; the fields are summary, snapshot, events, ledger, lostAcknowledged, stateHash',
    });
    expect(parseFields('summary')).toEqual({ fields: ['summary'] });
    const far = {
      ...presets.default.scenario,
      script: [{ atMs: 9_000_000_000, command: { type: 'healNetwork' as const } }],
    };
    const until = defaultUntil(far);
    expect('error' in until && until.error).toContain('pass --until MS to say how far');
    expect(defaultUntil(presets.default.scenario)).toEqual({ untilMs: 30_000 });
    expect(MAX_DEFAULT_UNTIL_MS).toBe(3_600_000);
  });

  it('runs to the last step plus SETTLE_MS up to an hour exactly, and asks for --until past it', () => {
    const at = (atMs: number) => ({
      ...presets.default!.scenario,
      script: [{ atMs, command: { type: 'healNetwork' as const } }],
    });
    expect(defaultUntil(at(MAX_DEFAULT_UNTIL_MS - SETTLE_MS))).toEqual({ untilMs: MAX_DEFAULT_UNTIL_MS });
    expect(defaultUntil(at(MAX_DEFAULT_UNTIL_MS - SETTLE_MS + 1))).toEqual({
      error:
        "the scenario's last script step is at 3570001 ms, so the run would simulate 3600001 ms " +
        '(more than 3600000 ms, an hour, without being asked): pass --until MS to say how far',
    });
    // A step at the largest time a scenario may name: a message, not a run of 285,000 years.
    const furthest = defaultUntil(at(Number.MAX_SAFE_INTEGER));
    expect('error' in furthest && furthest.error).toContain(
      `last script step is at ${Number.MAX_SAFE_INTEGER} ms`,
    );
  });
});
