// The importer, on describe outputs of several shapes (golden/import/*.txt, written in the format of
// Kafka's TopicCommand, MetadataQuorumCommand and BrokerApiVersionsCommand), and round trip: what
// the simulator's own kafka-topics.sh prints imports back to the same layout.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSimulation } from '../sim';
import { defaultScenario, presets } from './presets';
import { importLayout, REASSIGN_AT_MS, type ImportResult } from './importLayout';

const DIR = join(__dirname, '..', '..', 'golden', 'import');

/** The result as a reviewable text: the report one line each, then the scenario. */
function goldenText(result: ImportResult): string {
  const lines = result.report.map((r) => `${String(r.line).padStart(4)} ${r.status.padEnd(10)} ${r.message}`);
  return `${lines.join('\n')}\n\nsummary: ${JSON.stringify(result.summary)}\n\nscenario: ${JSON.stringify(result.scenario, null, 1)}\n`;
}

describe('importing a pasted describe output (golden/import)', () => {
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.txt'))) {
    it(`${file} gives golden/import/${file.replace(/\.txt$/, '.out')}`, async () => {
      const result = importLayout(readFileSync(join(DIR, file), 'utf8'));
      await expect(goldenText(result)).toMatchFileSnapshot(join(DIR, file.replace(/\.txt$/, '.out')));
    });
  }
});

const read = (name: string) => importLayout(readFileSync(join(DIR, name), 'utf8'));

describe('what the importer understands', () => {
  it('builds brokers in their racks, the quorum voters as controllers, and replica lists in order', () => {
    const { scenario } = read('racks.txt');
    expect(scenario?.nodes.filter((n) => n.roles.includes('controller')).map((n) => n.id)).toEqual([1, 2, 3]);
    expect(scenario?.nodes.find((n) => n.id === 7)).toEqual({ id: 7, roles: ['broker'], rack: 'zone-b' });
    const orders = scenario?.topics?.find((t) => t.name === 'orders');
    expect(orders?.assignment).toEqual([
      [4, 6, 8],
      [6, 8, 5],
      [8, 5, 7],
    ]);
    // segment.bytes is not modelled; min.insync.replicas is.
    expect(orders?.config).toEqual({ 'min.insync.replicas': 2 });
    expect(scenario?.topics?.some((t) => t.name.startsWith('__'))).toBe(false);
  });

  it('keeps a list value with commas (cleanup.policy=compact,delete) and ignores unmodelled configs', () => {
    const { scenario, report } = read('no-racks-elr-na.txt');
    expect(scenario?.topics?.[0]?.config).toEqual({
      'cleanup.policy': 'compact,delete',
      'min.insync.replicas': 2,
      'unclean.leader.election.enable': true,
    });
    expect(report.find((r) => r.status === 'ignored' && r.line === 1)?.message).toContain(
      'message.timestamp.type',
    );
    // No quorum pasted: three controllers after the highest broker id, no racks.
    expect(scenario?.nodes.filter((n) => n.roles.includes('controller')).map((n) => n.id)).toEqual([4, 5, 6]);
    expect(scenario?.nodes.every((n) => n.rack === undefined)).toBe(true);
  });

  it('starts a reassignment in progress as a scripted reassignPartitions to Replicas less Removing', () => {
    const { scenario, summary } = read('reassigning.txt');
    expect(summary.reassigning).toBe(1);
    expect(scenario?.topics?.[0]?.assignment?.[0]).toEqual([1, 2, 3]);
    expect(scenario?.script).toEqual([
      {
        atMs: REASSIGN_AT_MS,
        command: {
          type: 'reassignPartitions',
          partitions: [{ topic: 'orders', partition: 0, replicas: [1, 2, 4] }],
        },
      },
    ]);
    expect(scenario?.nodes.find((n) => n.id === 4)?.rack).toBe('r2');
  });

  it('reads space-separated lines and Leader: none, and says the cluster starts healthy', () => {
    const { scenario, report } = read('leader-none.txt');
    expect(scenario?.topics?.[0]?.assignment).toEqual([
      [4, 5],
      [5, 6],
      [6, 4],
    ]);
    expect(report.find((r) => r.message.includes('no leader or a short ISR'))).toMatchObject({
      line: 2,
      status: 'ignored',
    });
  });

  it('gives bad and partial input a report with line numbers, and no scenario', () => {
    const { scenario, report } = read('partial.txt');
    expect(scenario).toBeNull();
    const problems = report.filter((r) => r.status === 'problem').map((r) => [r.line, r.message]);
    expect(problems).toEqual([
      [1, expect.stringContaining('no line for partitions 1, 2, 3 (PartitionCount: 4)')],
      [3, 'Replicas: expected broker ids separated by commas, e.g. "Replicas: 1,2,3"'],
      [4, 'partition orders-0 again (first at line 2)'],
      [5, expect.stringContaining('Topic name is invalid')],
    ]);
    expect(report.find((r) => r.line === 6)?.status).toBe('ignored');
  });

  it('takes a reassignment plan alone as the layout', () => {
    const { scenario } = read('plan.txt');
    expect(scenario?.topics).toEqual([
      {
        name: 'orders',
        partitions: 3,
        replicationFactor: 2,
        assignment: [
          [1, 2],
          [2, 3],
          [3, 1],
        ],
      },
    ]);
  });

  it('refuses a layout over the simulator limits with the engine’s message', () => {
    const lines = ['Topic: big\tTopicId: x\tPartitionCount: 20001\tReplicationFactor: 1\tConfigs: '];
    for (let p = 0; p < 20001; p++)
      lines.push(`\tTopic: big\tPartition: ${p}\tLeader: 1\tReplicas: 1\tIsr: 1`);
    const { scenario, report } = importLayout(lines.join('\n'));
    expect(scenario).toBeNull();
    expect(report.filter((r) => r.status === 'problem').map((r) => r.message)).toEqual([
      expect.stringContaining('20000'),
    ]);
  });

  it('says so when nothing in the text is a describe output', () => {
    const { scenario, report } = importLayout('hello\nworld');
    expect(scenario).toBeNull();
    expect(report.map((r) => r.status)).toEqual(['ignored', 'ignored', 'problem']);
  });
});

describe('round trip through the simulator’s own kafka-topics.sh --describe', () => {
  for (const [name, scenario] of [
    ['default', defaultScenario],
    ['large', presets.large.scenario],
  ] as const) {
    it(`imports the ${name} cluster back to the same brokers and replica lists`, () => {
      const sim = createSimulation(scenario);
      sim.advance(10_000);
      const result = sim.apply({ type: 'cli', line: 'kafka-topics.sh --bootstrap-server b:9092 --describe' });
      const output = result.ok ? (result.output ?? '') : '';
      const imported = importLayout(output);
      expect(imported.report.filter((r) => r.status === 'problem')).toEqual([]);
      const want = sim
        .snapshot()
        .partitions.filter((p) => !p.topic.startsWith('__'))
        .map((p) => `${p.topic}-${p.partition}:${p.replicas.join(',')}`);
      const got = (imported.scenario?.topics ?? []).flatMap((t) =>
        (t.assignment ?? []).map((list, p) => `${t.name}-${p}:${list.join(',')}`),
      );
      expect(got.sort()).toEqual(want.sort());
      expect(() => createSimulation(imported.scenario!)).not.toThrow();
    });
  }
});
