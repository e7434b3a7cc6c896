// Golden outputs of kafka-transactions.sh on fixed scenarios, the expected text written from Kafka's
// tools/src/main/java/org/apache/kafka/tools/TransactionsCommand.java (each command's HEADERS and
// row) and ToolsUtils.prettyPrintTable (each column padded to its widest cell, then a TAB).
import { describe, expect, it } from 'vitest';
import type { Simulation } from '../simulation';
import { BS, cli as run, toolCluster } from '../testing/cli';

/** The table as prettyPrintTable prints it. */
function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => `${c.padEnd(widths[i]!)}\t`).join('')).join('\n');
}

/** A transactional producer pay-1 with an open transaction on orders-0 at t = 7 s. */
function openTransaction(): { sim: Simulation; startedAt: number } {
  const sim = toolCluster({
    brokers: 3,
    topics: [{ name: 'orders', partitions: 1, replicationFactor: 3 }],
  });
  sim.apply({
    type: 'startProducer',
    producerId: 'payments',
    topic: 'orders',
    ratePerSec: 0,
    config: { 'transactional.id': 'pay-1' },
  });
  sim.advance(2000);
  sim.apply({ type: 'beginTransaction', producerId: 'payments' });
  sim.apply({ type: 'produce', topic: 'orders', value: 'v', producerId: 'payments' });
  const startedAt = sim.nowMs;
  sim.advance(1000);
  return { sim, startedAt };
}

describe('kafka-transactions.sh', () => {
  it('list prints each transactional id with its coordinator, producer id and state', () => {
    const { sim } = openTransaction();
    const out = run(sim, `kafka-transactions.sh ${BS} list`);
    const row = out.output
      .split('\n')[1]!
      .split('\t')
      .map((c) => c.trim());
    expect(row[0]).toBe('pay-1');
    expect(row[3]).toBe('Ongoing');
    expect(out.output).toBe(
      table([
        ['TransactionalId', 'Coordinator', 'ProducerId', 'TransactionState'],
        ['pay-1', row[1]!, row[2]!, 'Ongoing'],
      ]),
    );
  });

  it('describe prints the coordinator row: epoch, timeout, start, duration and partitions', () => {
    const { sim } = openTransaction();
    const listed = run(sim, `kafka-transactions.sh ${BS} list`)
      .output.split('\n')[1]!
      .split('\t')
      .map((c) => c.trim());
    const out = run(sim, `kafka-transactions.sh ${BS} describe --transactional-id pay-1`).output;
    const cells = out
      .split('\n')[1]!
      .split('\t')
      .map((c) => c.trim());
    const start = Number(cells[6]);
    expect(start).toBeGreaterThan(0);
    expect(out).toBe(
      table([
        [
          'CoordinatorId',
          'TransactionalId',
          'ProducerId',
          'ProducerEpoch',
          'TransactionState',
          'TransactionTimeoutMs',
          'CurrentTransactionStartTimeMs',
          'TransactionDurationMs',
          'TopicPartitions',
        ],
        [
          listed[1]!,
          'pay-1',
          listed[2]!,
          '0',
          'Ongoing',
          '60000',
          String(start),
          String(sim.nowMs - start),
          'orders-0',
        ],
      ]),
    );
    // After the commit the coordinator says CompleteCommit.
    sim.apply({ type: 'commitTransaction', producerId: 'payments' });
    sim.advance(2000);
    expect(
      run(sim, `kafka-transactions.sh ${BS} describe --transactional-id pay-1`).output.split('\n')[1],
    ).toMatch(/\tCompleteCommit\s*\t/);
  });

  it('describe-producers prints the leader producer state, with the open transaction start offset', () => {
    const { sim } = openTransaction();
    const pid = run(sim, `kafka-transactions.sh ${BS} list`).output.split('\n')[1]!.split('\t')[2]!.trim();
    const out = run(
      sim,
      `kafka-transactions.sh ${BS} describe-producers --topic orders --partition 0`,
    ).output;
    const cells = out
      .split('\n')[1]!
      .split('\t')
      .map((c) => c.trim());
    expect(out).toBe(
      table([
        [
          'ProducerId',
          'ProducerEpoch',
          'LatestCoordinatorEpoch',
          'LastSequence',
          'LastTimestamp',
          'CurrentTransactionStartOffset',
        ],
        [pid, '0', '-1', '0', cells[4]!, '0'],
      ]),
    );
  });

  it("refuses in the tool's words", () => {
    const { sim } = openTransaction();
    expect(run(sim, `kafka-transactions.sh ${BS} describe --transactional-id nobody`)).toEqual({
      ok: false,
      output:
        'Failed to describe transaction state of transactional-id `nobody`: The transactionalId could not be found. Enable debug logging for additional detail.',
    });
    expect(run(sim, `kafka-transactions.sh ${BS} describe`).output.split('\n').at(-1)).toBe(
      'kafka-transactions.sh: error: argument --transactional-id is required',
    );
    expect(run(sim, `kafka-transactions.sh list`).output.split('\n').at(-1)).toBe(
      'kafka-transactions.sh: error: argument --bootstrap-server is required',
    );
    expect(run(sim, `kafka-transactions.sh ${BS} lst`).output.split('\n').at(-1)).toBe(
      "kafka-transactions.sh: error: argument COMMAND: invalid choice: 'lst' (choose from 'list', 'describe', 'describe-producers', 'abort', 'find-hanging')",
    );
  });
});
