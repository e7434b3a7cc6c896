import { describe, expect, it } from 'vitest';
import { completeLine } from './cli';

describe('completeLine', () => {
  it("completes a tool's name", () => {
    expect(completeLine('kafka-to')).toEqual({ line: 'kafka-topics.sh ', candidates: ['kafka-topics.sh'] });
  });
  it('stops where several names differ, and lists them', () => {
    const c = completeLine('kafka-co');
    expect(c.line).toBe('kafka-con');
    expect(c.candidates).toEqual(['kafka-consumer-groups.sh', 'kafka-configs.sh']);
  });
  it('completes an option of the tool named first, not one already given', () => {
    expect(completeLine('kafka-topics.sh --bootstrap-server localhost:9092 --under-r').line).toBe(
      'kafka-topics.sh --bootstrap-server localhost:9092 --under-replicated-partitions ',
    );
    expect(completeLine('kafka-topics.sh --describe --desc').candidates).toEqual([]);
  });
  it('completes a topic name after --topic and a group after --group', () => {
    expect(
      completeLine('kafka-topics.sh --describe --topic or', { topics: ['orders', 'payments'] }).line,
    ).toBe('kafka-topics.sh --describe --topic orders ');
    expect(completeLine('kafka-consumer-groups.sh --describe --group ', { groups: ['g1'] }).line).toBe(
      'kafka-consumer-groups.sh --describe --group g1 ',
    );
  });
  it('completes the sub-command of kafka-metadata-quorum.sh', () => {
    expect(completeLine('kafka-metadata-quorum.sh --bootstrap-server x:9092 desc').line).toBe(
      'kafka-metadata-quorum.sh --bootstrap-server x:9092 describe ',
    );
  });
});
