import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENGINE_VERSION, LIMITS } from '../sim';
import type { Command, Scenario } from '../sim/types';
import { defaultScenario, presets } from './presets';
import {
  checkHash,
  crc32Hex,
  decodeSession,
  encodeSession,
  fromBase64Url,
  MAX_SESSION_DEPTH,
  MAX_SESSION_POSITION_MS,
  MAX_SESSION_PRODUCED_RECORDS,
  producedRecords,
  validateSession,
  newSession,
  replaySession,
  sessionFragment,
  sessionFromJson,
  sessionPayloadOf,
  sessionToJson,
  toBase64Url,
  type Session,
} from './session';

const threeBrokers = presets['three-brokers'].scenario;

function sceneSession(): Session {
  const actions = [
    { atMs: 5000, command: { type: 'crashNode', nodeId: 2 } as Command },
    { atMs: 6000, command: { type: 'produce', topic: 'demo', key: 'k', value: 'v', acks: 'all' } as Command },
  ];
  const session: Session = { ...newSession(threeBrokers), actions, positionMs: 20000 };
  return { ...session, stateHash: replaySession(session).sim.stateHash() };
}

const issuesOf = (payload: string) => {
  const r = decodeSession(payload);
  expect(r.ok).toBe(false);
  return r.ok ? [] : r.issues;
};

describe('a session link', () => {
  it('round-trips and replays to the same state hash', () => {
    const session = sceneSession();
    const fragment = sessionFragment(session);
    expect(fragment.startsWith('#s=1.')).toBe(true);
    const decoded = decodeSession(sessionPayloadOf(`https://example.org/lab/${fragment}`)!);
    expect(decoded).toEqual({ ok: true, session });
    if (!decoded.ok) return;
    const { sim, refused } = replaySession(decoded.session);
    expect(refused).toEqual([]);
    expect(checkHash(decoded.session, sim.stateHash())).toEqual({
      status: 'match',
      stateHash: session.stateHash,
    });
  });

  it('says plainly when another engine version wrote the link and the hash differs', () => {
    const session = { ...sceneSession(), engineVersion: '0.0.1-old', stateHash: 'deadbeef' };
    expect(checkHash(session, 'cafe').status).toBe('other-engine');
    expect(checkHash({ ...session, engineVersion: ENGINE_VERSION }, 'cafe').status).toBe('hash-differs');
  });

  it('refuses a truncated link', () => {
    const payload = encodeSession(sceneSession());
    const issues = issuesOf(payload.slice(0, payload.length - 20));
    expect(issues.map((i) => i.message).join('\n')).toMatch(/truncated/);
    expect(issuesOf('1.abcdef12')[0]?.message).toMatch(/truncated/);
  });

  it('refuses a tampered link with a checksum error', () => {
    const payload = encodeSession(sceneSession());
    const [format, , data] = payload.split('.');
    const issues = issuesOf(`${format}.00000000.${data}`);
    expect(issues).toEqual([expect.objectContaining({ path: 'link.checksum' })]);
    expect(issues[0]?.message).toMatch(/altered or damaged/);
  });

  it('refuses a link whose data was altered: corrupt data or checksum mismatch', () => {
    const payload = encodeSession(sceneSession());
    const flipped = payload.slice(0, 40) + (payload[40] === 'A' ? 'B' : 'A') + payload.slice(41);
    expect(issuesOf(flipped).length).toBeGreaterThan(0);
  });

  it('refuses an oversized link, naming the limit', () => {
    const issues = issuesOf(`1.00000000.${'A'.repeat(LIMITS.maxUrlLength + 1)}`);
    expect(issues[0]?.message).toContain(String(LIMITS.maxUrlLength));
  });

  it('refuses a link of a future format without guessing', () => {
    const issues = issuesOf('9.00000000.AAAA');
    expect(issues).toEqual([
      { path: 'link.format', message: expect.stringContaining('session format 9 is newer') },
    ]);
  });

  it('lists every problem of a well-formed link whose session is invalid', () => {
    const bad = {
      ...sceneSession(),
      scenario: { ...threeBrokers, topics: [{ name: 'demo', partitions: 0, replicationFactor: 9 }] },
      actions: [
        { atMs: 9000, command: { type: 'crashNode', nodeId: 2 } },
        { atMs: 8000, command: { type: 'explode' } },
      ],
    } as unknown as Session;
    const paths = issuesOf(encodeSession(bad)).map((i) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'scenario.topics[0].partitions',
        'scenario.topics[0].replicationFactor',
        'actions[1].atMs',
        'actions[1].command.type',
      ]),
    );
  });

  it('refuses more actions than the limit', () => {
    const action = { atMs: 0, command: { type: 'healNetwork' } as Command };
    const session = { ...newSession(threeBrokers), actions: Array(LIMITS.maxActions + 1).fill(action) };
    expect(issuesOf(encodeSession(session)).map((i) => i.message)).toContain(
      `${LIMITS.maxActions + 1} actions; the limit is ${LIMITS.maxActions}`,
    );
  });
});

describe('what a link may ask the worker to replay (issue: links that froze the worker)', () => {
  it('refuses a position far in the future, naming the bound', () => {
    const session = { ...newSession(threeBrokers), positionMs: 1e12 };
    expect(validateSession(session)).toEqual([
      {
        path: 'positionMs',
        message: `1000000000000 ms is more than a day of virtual time; the limit is ${MAX_SESSION_POSITION_MS} ms (24 h)`,
      },
    ]);
    expect(validateSession({ ...session, positionMs: MAX_SESSION_POSITION_MS })).toEqual([]);
  });

  it('refuses thousands of maximal produce actions (the 19.7 KB link of 50 million records)', () => {
    const produce = {
      type: 'produce',
      topic: 'orders',
      value: 'v',
      count: LIMITS.maxProduceCount,
    } as Command;
    const actions = Array.from({ length: LIMITS.maxActions }, () => ({ atMs: 0, command: produce }));
    const session = { ...newSession(threeBrokers), actions };
    expect(producedRecords(actions)).toBe(50_000_000);
    expect(validateSession(session)).toContainEqual({
      path: 'actions',
      message: `its produce actions write 50000000 records; the limit is ${MAX_SESSION_PRODUCED_RECORDS}`,
    });
    // Up to the bound is fine: 100 produce actions of 10,000 records.
    expect(validateSession({ ...session, actions: actions.slice(0, 100) })).toEqual([]);
  });
});

describe('sessions a careless or hostile writer makes', () => {
  it('refuses nesting thousands of levels deep with its path, not a stack overflow', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 5000; i++) deep = { k: deep };
    const scenario = { ...threeBrokers, config: { 'log.retention.ms': deep } };
    const issues = validateSession({ ...newSession(threeBrokers), scenario });
    expect(issues).toHaveLength(1);
    expect(issues[0]?.path).toMatch(/^scenario\.config\.log\.retention\.ms(\.k)+$/);
    expect(issues[0]?.message).toBe(`nested more than ${MAX_SESSION_DEPTH} levels deep; a session never is`);
    // The same as a file holding a bare scenario.
    const r = sessionFromJson(`{"version":1,"x":${'['.repeat(3000)}${']'.repeat(3000)}}`);
    expect(r.ok === false && r.issues[0]?.message).toContain('levels deep');
  });

  it('names a field whose key is empty, odd or long so the path can be read', () => {
    expect(validateSession({ ...newSession(threeBrokers), '': 1 })).toContainEqual({
      path: '[""]',
      message: 'unknown field',
    });
    const long = 'k'.repeat(500);
    const issue = validateSession({ ...newSession(threeBrokers), [long]: 1 })[0];
    expect(issue?.path).toBe(`["${'k'.repeat(40)}…"]`);
  });
});

describe('a session file', () => {
  it('round-trips as JSON', () => {
    const session = sceneSession();
    expect(sessionFromJson(sessionToJson(session))).toEqual({ ok: true, session });
  });

  it('accepts a bare scenario as a session with no actions', () => {
    const r = sessionFromJson(JSON.stringify(defaultScenario));
    expect(r).toEqual({ ok: true, session: newSession(defaultScenario) });
  });

  it('lists the scenario issues of a bad file', () => {
    const r = sessionFromJson(JSON.stringify({ version: 1, seed: 1, nodes: [] }));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues[0]?.path).toBe('scenario.nodes');
    expect(sessionFromJson('{ nope').ok).toBe(false);
  });
});

describe('bytes', () => {
  it('base64url round-trips every length', () => {
    for (let n = 0; n < 20; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 255);
      expect([...fromBase64Url(toBase64Url(bytes))]).toEqual([...bytes]);
    }
  });

  it('crc32 matches the standard check value', () => {
    expect(crc32Hex(new TextEncoder().encode('123456789'))).toBe('cbf43926');
  });
});

// ---- property: any session encodes to a link that decodes to an equal session ------------------

const nodeIds = [1, 2, 3, 4, 5];
const commandArb: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ type: fc.constant('crashNode' as const), nodeId: fc.constantFrom(...nodeIds) }),
  fc.record({ type: fc.constant('restartNode' as const), nodeId: fc.constantFrom(...nodeIds) }),
  fc.record({ type: fc.constant('healNetwork' as const) }),
  fc.record({
    type: fc.constant('cutLink' as const),
    from: fc.constantFrom(2, 3),
    to: fc.constantFrom(4, 5),
    oneWay: fc.boolean(),
  }),
  fc.record({
    type: fc.constant('produce' as const),
    topic: fc.constant('t'),
    key: fc.option(fc.string({ maxLength: 8 }), { nil: null }),
    value: fc.string({ maxLength: 40 }),
    acks: fc.constantFrom(0 as const, 1 as const, 'all' as const),
  }),
  fc.record({
    type: fc.constant('alterConfig' as const),
    resourceType: fc.constant('topic' as const),
    resourceName: fc.constant('t'),
    configs: fc.record({ 'min.insync.replicas': fc.integer({ min: 1, max: 3 }) }),
  }),
);

const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  version: fc.constant(1 as const),
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  nodes: fc.constant([
    { id: 1, roles: ['controller' as const] },
    ...[2, 3, 4, 5].map((id) => ({ id, roles: ['broker' as const], rack: `zone-${id % 3}` })),
  ]),
  network: fc.record({
    latencyMs: fc.integer({ min: 0, max: 50 }),
    jitterMs: fc.integer({ min: 0, max: 5 }),
  }),
  topics: fc.constant([{ name: 't', partitions: 3, replicationFactor: 3 }]),
});

const sessionArb: fc.Arbitrary<Session> = fc
  .tuple(
    scenarioArb,
    fc.array(fc.tuple(fc.integer({ min: 0, max: 600_000 }), commandArb), { maxLength: 60 }),
    fc.integer({ min: 0, max: 600_000 }),
    fc.option(fc.stringMatching(/^[0-9a-f]{8,16}$/), { nil: undefined }),
  )
  .map(([scenario, raw, extra, stateHash]) => {
    const actions = raw.map(([atMs, command]) => ({ atMs, command })).sort((a, b) => a.atMs - b.atMs);
    const positionMs = (actions.at(-1)?.atMs ?? 0) + extra;
    const session: Session = { format: 1, engineVersion: ENGINE_VERSION, scenario, actions, positionMs };
    return stateHash === undefined ? session : { ...session, stateHash };
  });

const SEED = 20261129;
describe('property', () => {
  it(`random sessions encode to a link and decode to an equal session (fast-check seed ${SEED})`, () => {
    fc.assert(
      fc.property(sessionArb, (session) => {
        expect(decodeSession(encodeSession(session))).toEqual({ ok: true, session });
      }),
      { seed: SEED, numRuns: 200 },
    );
  });
});
