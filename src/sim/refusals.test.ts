// What a careless or hostile scenario file gets back: a ScenarioError whose every issue has a
// path a reader can find and a short message, never an exception from inside the engine, a
// megabyte message, or `[object Object]`. Each case is one found by `npm run fuzz`.
import { describe, expect, it } from 'vitest';
import { createSimulation, ScenarioError, validateCommand, validateScenario, LIMITS } from './index';
import type { Scenario } from './types';
import { presets } from '../scenario/presets';

// Tests break scenarios on purpose, in ways the Scenario type forbids.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = Record<string, any>;

const HUGE = 'x'.repeat(100_000);
/** No message quotes more than a short prefix of a value (40 characters) plus its own words. */
const MAX_MESSAGE = 300;

function scenario(name: keyof typeof presets, edit: (s: Loose) => void): unknown {
  const s = structuredClone(presets[name]!.scenario) as Loose;
  edit(s);
  return s;
}

/** The issues createSimulation refuses `input` with; fails the test if it is accepted or throws otherwise. */
function refusal(input: unknown): { path: string; message: string }[] {
  try {
    createSimulation(input as Scenario);
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error;
    for (const issue of error.issues) {
      expect(issue.path).not.toBe('');
      expect(issue.message.length).toBeLessThanOrEqual(MAX_MESSAGE);
      expect(issue.message).not.toContain('[object Object]');
    }
    return error.issues;
  }
  throw new Error('the scenario was accepted');
}

const issueAt = (issues: { path: string; message: string }[], path: string) => {
  const found = issues.find((i) => i.path === path);
  expect(found, `an issue at ${path} among ${issues.map((i) => i.path).join(', ')}`).toBeDefined();
  return found!.message;
};

describe('a huge value is quoted by a short prefix', () => {
  const cases: [string, keyof typeof presets, (s: Loose) => void][] = [
    ['nodes[1].roles[0]', 'default', (s) => (s.nodes[1].roles[0] = HUGE)],
    ['script[0].command.type', 'three-brokers', (s) => (s.script = [{ atMs: 0, command: { type: HUGE } }])],
    [
      'script[0].command.topics[0]',
      'three-brokers',
      (s) =>
        (s.script = [
          { atMs: 0, command: { type: 'startConsumer', consumerId: 'c', groupId: 'g', topics: [HUGE] } },
        ]),
    ],
    [
      'script[0].command.topic',
      'three-brokers',
      (s) => (s.script = [{ atMs: 0, command: { type: 'produce', topic: HUGE, value: 'v' } }]),
    ],
    [
      'topics[0].config.min.insync.replicas',
      'three-brokers',
      (s) => (s.topics[0].config = { 'min.insync.replicas': HUGE }),
    ],
    [
      'config.offsets.topic.num.partitions',
      'default',
      (s) => (s.config['offsets.topic.num.partitions'] = HUGE),
    ],
    ['mirror.standby.nodes[0].roles[0]', 'two-regions', (s) => (s.mirror.standby.nodes[0].roles[0] = HUGE)],
  ];
  for (const [path, preset, edit] of cases)
    it(`at ${path}`, () => {
      const message = issueAt(refusal(scenario(preset, edit)), path);
      expect(message).toContain('x'.repeat(40) + '…');
      expect(message).not.toContain('x'.repeat(41));
    });

  it('in a config name, a field name and a topic name, the paths are cut short too', () => {
    const issues = refusal(
      scenario('three-brokers', (s) => {
        s.config = { [HUGE]: 1 };
        s.topics[0][HUGE] = 1;
        s.topics[0].name = HUGE;
      }),
    );
    for (const issue of issues) expect(issue.path.length).toBeLessThan(100);
    expect(issueAt(issues, 'topics[0].name')).toContain('…');
  });
});

describe('a value that is not a string or a number is named by its kind', () => {
  it('an object for group.protocol, an array for acks, null for linger.ms', () => {
    const issues = refusal(
      scenario('three-brokers', (s) => {
        s.script = [
          {
            atMs: 0,
            command: {
              type: 'startConsumer',
              consumerId: 'c',
              groupId: 'g',
              topics: ['demo'],
              config: { 'group.protocol': { a: 1 } },
            },
          },
          {
            atMs: 0,
            command: {
              type: 'startProducer',
              producerId: 'p',
              topic: 'demo',
              ratePerSec: 1,
              config: { acks: ['all'] },
            },
          },
          {
            atMs: 0,
            command: {
              type: 'startProducer',
              producerId: 'q',
              topic: 'demo',
              ratePerSec: 1,
              config: { 'linger.ms': null },
            },
          },
        ];
      }),
    );
    expect(issueAt(issues, 'script[0].command.config')).toBe(
      'Invalid value (an object) for configuration group.protocol: Expected a string, but it was an object',
    );
    expect(issueAt(issues, 'script[1].command.config')).toContain(
      'Invalid value (an array) for configuration acks',
    );
    expect(issueAt(issues, 'script[2].command.config')).toContain(
      'Invalid value null for configuration linger.ms',
    );
    const topicConfig = refusal(
      scenario('three-brokers', (s) => (s.topics[0].config = { 'retention.ms': { deep: [1] } })),
    );
    expect(issueAt(topicConfig, 'topics[0].config.retention.ms')).toBe(
      'Invalid value (an object) for configuration retention.ms: Expected value to be a 64-bit integer (long), but it was an object',
    );
  });

  it('an array is never read as its text (["classic"] is not "classic")', () => {
    const issues = validateCommand(
      {
        type: 'startConsumer',
        consumerId: 'c',
        groupId: 'g',
        topics: ['demo'],
        config: { 'group.protocol': ['classic'] },
      },
      'command',
    );
    expect(issues.map((i) => i.path)).toEqual(['command.config']);
  });
});

describe('holes and non-objects in arrays are refused at their index', () => {
  // A hole is what `delete array[i]` leaves: forEach skips it, and the engine then read undefined.
  /** An array of `length` with values only at the given indices (the rest are holes). */
  const holey = (length: number, at: Record<number, unknown>): unknown[] => {
    const out = new Array<unknown>(length);
    for (const [i, v] of Object.entries(at)) out[Number(i)] = v;
    return out;
  };
  it('a node, a topic and a script step that are missing', () => {
    const input = scenario('default', (s) => {
      delete s.nodes[2];
      s.topics.length += 1;
      s.script = holey(3, { 0: { atMs: 0, command: { type: 'crashNode', nodeId: 4 } }, 2: 5 });
    });
    const issues = refusal(input);
    expect(issueAt(issues, 'nodes[2]')).toContain('a node must be an object');
    expect(issueAt(issues, `topics[${(input as Loose).topics.length - 1}]`)).toContain(
      'a topic must be an object',
    );
    expect(issueAt(issues, 'script[1]')).toContain('a step must be an object');
    expect(issueAt(issues, 'script[2]')).toContain('a step must be an object');
  });

  it('a hole in a list of roles and in a list of replicas', () => {
    const issues = refusal(
      scenario('three-brokers', (s) => {
        s.nodes[0].roles = holey(2, { 1: 'broker' });
        s.topics[0].assignment = [holey(3, { 0: 1, 2: 2 })];
      }),
    );
    expect(issueAt(issues, 'nodes[0].roles[0]')).toContain('unknown role nothing');
    expect(issueAt(issues, 'topics[0].assignment[0][1]')).toBe(
      'a broker id must be a positive 32-bit integer',
    );
  });
});

describe('every issue has a path a reader can find', () => {
  it('an empty key, a key with spaces and a key of Object.prototype', () => {
    const issues = refusal(
      scenario('three-brokers', (s) => {
        s[''] = 1;
        s.topics[0][''] = 2;
        s.nodes[0]['a b'] = 3;
        Object.defineProperty(s, '__proto__', {
          value: 4,
          enumerable: true,
          configurable: true,
          writable: true,
        });
      }),
    );
    expect(issues.map((i) => i.path)).toEqual(
      expect.arrayContaining(['[""]', 'topics[0][""]', 'nodes[0]["a b"]', '__proto__']),
    );
  });
});

describe('deep nesting is refused with a path, never a stack overflow', () => {
  const deep = (levels: number): unknown => {
    let v: unknown = 1;
    for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { k: v };
    return v;
  };

  it('a config value 5,000 levels deep', () => {
    const issues = refusal(
      scenario('three-brokers', (s) => (s.config = { 'min.insync.replicas': deep(5000) })),
    );
    expect(issues).toHaveLength(1);
    expect(issues[0]!.path.startsWith('config.min.insync.replicas[0].k[0].k')).toBe(true);
    expect(issues[0]!.message).toBe(`nested more than ${LIMITS.maxNesting} levels deep; a scenario never is`);
  });

  it('a command field 5,000 levels deep, checked alone and applied', () => {
    const command = { type: 'crashNode', nodeId: deep(5000) };
    const issues = validateCommand(command, 'command');
    expect(issues).toHaveLength(1);
    expect(issues[0]!.path.startsWith('command.nodeId[0].k[0]')).toBe(true);
    const sim = createSimulation(presets['three-brokers']!.scenario);
    const result = sim.apply(command as never);
    expect(result.ok).toBe(false);
  });

  it('a flat command of more fields than the limit is refused, one at the limit is read on', () => {
    const fields = (n: number) => {
      const c: Record<string, unknown> = { type: 'crashNode', nodeId: 12 };
      for (let i = 0; i < n - 2; i++) c[`extra${i}`] = i;
      return c;
    };
    // The command itself counts as one value, and each field as one more.
    expect(validateCommand(fields(LIMITS.maxValues), 'command')).toEqual([
      { path: 'command', message: `holds more than ${LIMITS.maxValues} values in all; a command never does` },
    ]);
    const atLimit = validateCommand(fields(LIMITS.maxValues - 1), 'command');
    expect(atLimit.map((i) => i.message)).not.toContain(
      `holds more than ${LIMITS.maxValues} values in all; a command never does`,
    );
    expect(atLimit[0]!.path).toBe('command.extra0');
  });

  it('a scenario of more values than the limit is refused as a whole, before anything else', () => {
    const issues = validateScenario(
      scenario('three-brokers', (s) => (s.extra = new Array(LIMITS.maxValues).fill(0))),
    );
    expect(issues).toEqual([
      { path: '(root)', message: `holds more than ${LIMITS.maxValues} values in all; a scenario never does` },
    ]);
  });
});
