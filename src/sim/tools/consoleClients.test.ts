// Golden outputs of kafka-console-producer.sh and kafka-console-consumer.sh on fixed scenarios, the
// expected text written from Kafka's source: tools/.../LineMessageReader.java (keys and values of
// the lines), tools/.../consumer/DefaultMessageFormatter.java (print.* fields, separators) and
// ConsoleConsumer.reportRecordCount (`Processed a total of N messages`).
import { describe, expect, it } from 'vitest';
import type { Simulation } from '../simulation';
import { BS, cli as run, toolCluster } from '../testing/cli';

function cluster(): Simulation {
  return toolCluster({
    brokers: 3,
    topics: [{ name: 'orders', partitions: 1, replicationFactor: 3 }],
  });
}

describe('kafka-console-producer.sh', () => {
  it('sends each line of its standard input as a record, the key before key.separator', () => {
    const sim = cluster();
    expect(
      run(
        sim,
        `echo -e 'alice:1\\nbob:2' | kafka-console-producer.sh ${BS} --topic orders --property parse.key=true --property key.separator=: --producer-property acks=all`,
      ),
    ).toEqual({ ok: true, output: '' });
    sim.advance(2000);
    expect(sim.committedRecords('orders', 0).map((r) => [r.key, r.value])).toEqual([
      ['alice', '1'],
      ['bob', '2'],
    ]);
    // The records are the engine's, sent by the client console-producer (its client.id).
    expect(sim.ledger().map((e) => [e.producerId, e.acks])).toEqual([
      ['console-producer', 'all'],
      ['console-producer', 'all'],
    ]);
  });

  it('reads a file of the admin host with < file', () => {
    const sim = cluster();
    run(sim, `echo -e 'x\\ny\\nz' > records.txt`);
    run(sim, `kafka-console-producer.sh ${BS} --topic orders < records.txt`);
    sim.advance(2000);
    expect(sim.committedRecords('orders', 0).map((r) => r.value)).toEqual(['x', 'y', 'z']);
  });

  it("refuses a line without the key separator in LineMessageReader's words", () => {
    const sim = cluster();
    expect(
      run(sim, `echo nokey | kafka-console-producer.sh ${BS} --topic orders --property parse.key=true`),
    ).toEqual({
      ok: false,
      output: "org.apache.kafka.common.KafkaException: No key separator found on line number 1: 'nokey'",
    });
    const unknown = run(sim, `echo v | kafka-console-producer.sh ${BS} --topic nope`).output;
    expect(unknown).toBe(
      [
        'ERROR Error when sending message to topic nope with key: null, value: 1 bytes with error: (org.apache.kafka.clients.producer.internals.ErrorLoggingCallback)',
        'org.apache.kafka.common.errors.TimeoutException: Topic nope not present in metadata after 60000 ms.',
      ].join('\n'),
    );
  });

  it('says, as the simulator, where the records come from when there is no standard input', () => {
    const sim = cluster();
    expect(run(sim, `kafka-console-producer.sh ${BS} --topic orders`).output).toMatch(
      /^Note \(simulator\): the terminal cannot type into a running tool; give the records on standard input/,
    );
    expect(run(sim, `kafka-console-producer.sh ${BS}`).output.split('\n').slice(0, 2)).toEqual([
      'Missing required argument "[topic]"',
      'Usage: kafka-console-producer.sh [options]',
    ]);
  });
});

describe('kafka-console-consumer.sh', () => {
  function withRecords(): Simulation {
    const sim = cluster();
    run(
      sim,
      `echo -e 'a:1\\nb:2\\nc:3' | kafka-console-producer.sh ${BS} --topic orders --property parse.key=true --property key.separator=:`,
    );
    sim.advance(2000);
    return sim;
  }

  it('prints what is there from the beginning, then the count, and nothing new without --from-beginning', () => {
    const sim = withRecords();
    expect(run(sim, `kafka-console-consumer.sh ${BS} --topic orders --from-beginning`)).toEqual({
      ok: true,
      output: ['1', '2', '3', 'Processed a total of 3 messages'].join('\n'),
    });
    expect(run(sim, `kafka-console-consumer.sh ${BS} --topic orders`).output).toBe(
      'Processed a total of 0 messages',
    );
  });

  it('prints the fields the formatter properties ask for, TAB-separated, and stops at --max-messages', () => {
    const sim = withRecords();
    expect(
      run(
        sim,
        `kafka-console-consumer.sh ${BS} --topic orders --partition 0 --offset 1 --max-messages 1 --property print.key=true --property print.offset=true --property print.partition=true`,
      ).output,
    ).toBe(['Partition:0\tOffset:1\tb\t2', 'Processed a total of 1 messages'].join('\n'));
  });

  it('starts a --group from its committed offsets', () => {
    const sim = withRecords();
    sim.apply({
      type: 'startConsumer',
      consumerId: 'c1',
      groupId: 'billing',
      topics: ['orders'],
      config: { 'auto.offset.reset': 'earliest' },
    });
    sim.advance(15_000);
    sim.apply({ type: 'stopConsumer', consumerId: 'c1' });
    sim.advance(2000);
    run(sim, `echo 4 | kafka-console-producer.sh ${BS} --topic orders`);
    sim.advance(2000);
    expect(run(sim, `kafka-console-consumer.sh ${BS} --topic orders --group billing`).output).toBe(
      ['4', 'Processed a total of 1 messages'].join('\n'),
    );
  });

  it('under read_committed stops at the last stable offset of an open transaction', () => {
    const sim = withRecords();
    sim.apply({
      type: 'startProducer',
      producerId: 'payments',
      topic: 'orders',
      ratePerSec: 0,
      config: { 'transactional.id': 'pay-1' },
    });
    sim.advance(1000);
    sim.apply({ type: 'beginTransaction', producerId: 'payments' });
    sim.apply({ type: 'produce', topic: 'orders', value: 'open', producerId: 'payments' });
    sim.advance(1000);
    expect(run(sim, `kafka-console-consumer.sh ${BS} --topic orders --from-beginning`).output).toBe(
      ['1', '2', '3', 'open', 'Processed a total of 4 messages'].join('\n'),
    );
    expect(
      run(
        sim,
        `kafka-console-consumer.sh ${BS} --topic orders --from-beginning --isolation-level read_committed`,
      ).output,
    ).toBe(['1', '2', '3', 'Processed a total of 3 messages'].join('\n'));
    // Aborted, the record is never read under read_committed, and its marker never printed.
    sim.apply({ type: 'abortTransaction', producerId: 'payments' });
    sim.advance(2000);
    expect(
      run(
        sim,
        `kafka-console-consumer.sh ${BS} --topic orders --from-beginning --isolation-level read_committed`,
      ).output,
    ).toBe(['1', '2', '3', 'Processed a total of 3 messages'].join('\n'));
  });

  it("refuses in ConsoleConsumerOptions' words", () => {
    const sim = cluster();
    expect(
      run(sim, `kafka-console-consumer.sh ${BS} --topic orders --offset 3`).output.split('\n').slice(0, 2),
    ).toEqual([
      'The partition is required when offset is specified.',
      'Usage: kafka-console-consumer.sh [options]',
    ]);
    expect(run(sim, `kafka-console-consumer.sh ${BS} --from-beginning`).output.split('\n')[0]).toBe(
      'Exactly one of --include/--topic is required. ',
    );
  });
});
