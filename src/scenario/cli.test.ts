import { describe, expect, it } from 'vitest';
import { completeLine } from './cli';

describe('completeLine', () => {
  it("completes a tool's name", () => {
    expect(completeLine('kafka-to')).toEqual({ line: 'kafka-topics.sh ', candidates: ['kafka-topics.sh'] });
  });
  it('stops where several names differ, and lists them', () => {
    const c = completeLine('kafka-co');
    expect(c.line).toBe('kafka-con');
    expect(c.candidates).toEqual([
      'kafka-consumer-groups.sh',
      'kafka-configs.sh',
      'kafka-console-producer.sh',
      'kafka-console-consumer.sh',
    ]);
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
  it('completes the names and options of kafka-acls, kafka-features, the console clients and kafka-transactions', () => {
    expect(completeLine('kafka-ac').line).toBe('kafka-acls.sh ');
    expect(completeLine('kafka-console-').candidates).toEqual([
      'kafka-console-producer.sh',
      'kafka-console-consumer.sh',
    ]);
    expect(completeLine('kafka-acls.sh --allow-p').line).toBe('kafka-acls.sh --allow-principal ');
    expect(completeLine('kafka-features.sh --bootstrap-server x:9092 desc').line).toBe(
      'kafka-features.sh --bootstrap-server x:9092 describe ',
    );
    expect(completeLine('kafka-transactions.sh --bootstrap-server x:9092 describe-p').line).toBe(
      'kafka-transactions.sh --bootstrap-server x:9092 describe-producers ',
    );
    expect(completeLine('kafka-console-consumer.sh --isol').line).toBe(
      'kafka-console-consumer.sh --isolation-level ',
    );
  });
  it('completes the command after the last pipe', () => {
    expect(completeLine("echo 'k:v' | kafka-console-producer.sh --producer-p").line).toBe(
      "echo 'k:v' | kafka-console-producer.sh --producer-property ",
    );
    expect(completeLine('echo y | kafka-acls.sh --remove --topic o', { topics: ['orders'] }).line).toBe(
      'echo y | kafka-acls.sh --remove --topic orders ',
    );
  });
});
