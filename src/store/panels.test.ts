import { describe, expect, it } from 'vitest';
import type { LedgerEntry, NodeView, PartitionView, SimEvent, Snapshot } from '../sim/types';
import {
  dashboardRow,
  errorsByField,
  eventCategory,
  eventSelection,
  fieldErrors,
  filterDashboardRows,
  isolationGroups,
  ledgerRow,
  ledgerSummary,
  nextFreeId,
  parseConfigEntries,
  parseSelectionValue,
  partitionMatrix,
  selectDashboardRows,
  selectEventLogRows,
  selectHealth,
  selectInspectables,
  selectInspector,
  selectionValue,
  selectRacks,
  sortDashboardRows,
  topicMinIsr,
  topicSummary,
  EVENT_CATEGORIES,
} from './panels';
import { parsePartitionId } from './selection';

function partition(index: number, fields: Partial<PartitionView> = {}, topic = 'orders'): PartitionView {
  return {
    topic,
    partition: index,
    replicas: [4, 5, 6],
    leader: 4,
    leaderEpoch: 0,
    isr: [4, 5, 6],
    elr: [],
    highWatermark: 10,
    replicaLogs: [{ brokerId: 4, logStartOffset: 0, logEndOffset: 10, highWatermark: 10 }],
    ...fields,
  };
}

function node(id: number, roles: NodeView['roles'], rack: string | null = null): NodeView {
  return {
    id,
    roles,
    rack,
    state: 'running',
    fenced: false,
    brokerEpoch: 1,
    metadataOffset: 20,
    shuttingDown: false,
    lastHeartbeatMs: null,
  };
}

function snapshotWith(partitions: PartitionView[], minIsr: number | undefined = 2): Snapshot {
  return {
    timeMs: 5000,
    nodes: [
      node(1, ['controller'], 'zone-a'),
      node(4, ['broker'], 'zone-a'),
      node(5, ['broker'], 'zone-b'),
      node(6, ['broker'], 'zone-b'),
    ],
    quorum: { leaderId: 1, epoch: 3, highWatermark: 20, voters: [] },
    topics: [
      {
        name: 'orders',
        topicId: 'Lz5ahG9qQ1Cq7xRBZgd9jA',
        partitions: 6,
        replicationFactor: 3,
        config: minIsr === undefined ? {} : { 'min.insync.replicas': minIsr },
      },
    ],
    partitions,
    network: { latencyMs: 2, cuts: [], inFlight: 0 },
    clients: { producers: [], consumers: [], groups: [], deliveries: [], processors: [] },
  };
}

describe('the dashboard rows', () => {
  it('are empty before the first snapshot', () => {
    expect(selectDashboardRows(null)).toEqual([]);
  });

  it('mark a healthy partition led by its preferred leader', () => {
    const [row] = selectDashboardRows(snapshotWith([partition(0)]));
    expect(row).toMatchObject({
      key: 'orders-0',
      preferredLeader: true,
      underReplicated: false,
      underMinIsr: false,
      offline: false,
      minInsyncReplicas: 2,
      highWatermark: 10,
    });
  });

  it('flag a shrunk ISR as under-replicated, and under min ISR once below min.insync.replicas', () => {
    const [one, two] = selectDashboardRows(
      snapshotWith([partition(0, { isr: [4, 5] }), partition(1, { isr: [4], leader: 4 })]),
    );
    expect([one?.underReplicated, one?.underMinIsr]).toEqual([true, false]);
    expect([two?.underReplicated, two?.underMinIsr]).toEqual([true, true]);
  });

  it('flag a partition without a leader as offline and not led by its preferred leader', () => {
    const [row] = selectDashboardRows(snapshotWith([partition(0, { leader: -1, isr: [4] })]));
    expect(row).toMatchObject({ offline: true, preferredLeader: false, underMinIsr: true });
  });

  it('notice a leader that is not the first replica', () => {
    expect(dashboardRow(partition(0, { leader: 5 }), 1).preferredLeader).toBe(false);
  });

  it('take min.insync.replicas as 1 by default and never above the replication factor', () => {
    expect(topicMinIsr(undefined)).toBe(1);
    expect(topicMinIsr({ 'min.insync.replicas': 3 })).toBe(3);
    // RF 2 with min.insync.replicas=3: both replicas in sync is as good as it gets.
    const row = dashboardRow(partition(0, { replicas: [4, 5], isr: [4, 5] }), 3);
    expect(row.underMinIsr).toBe(false);
  });

  it('sort by topic then partition, by problems, and keep ties in partition order', () => {
    const rows = selectDashboardRows(
      snapshotWith([
        partition(2),
        partition(0, { isr: [4] }),
        partition(1, { leader: -1, isr: [] }),
        partition(0, {}, 'audit'),
      ]),
    );
    expect(rows.map((r) => r.key)).toEqual(['audit-0', 'orders-0', 'orders-1', 'orders-2']);
    expect(sortDashboardRows(rows, 'status', 'ascending').map((r) => r.key)).toEqual([
      'orders-1',
      'orders-0',
      'audit-0',
      'orders-2',
    ]);
    expect(sortDashboardRows(rows, 'partition', 'descending')[0]?.key).toBe('orders-2');
  });

  it('filter by text, by problems and hide internal topics unless asked', () => {
    const rows = selectDashboardRows(
      snapshotWith([partition(0), partition(1, { isr: [4] }), partition(0, {}, '__consumer_offsets')]),
    );
    const keys = (filter: Parameters<typeof filterDashboardRows>[1]) =>
      filterDashboardRows(rows, filter).map((r) => r.key);
    expect(keys({ text: '', onlyProblems: false, showInternal: false })).toEqual(['orders-0', 'orders-1']);
    expect(keys({ text: 'ORDERS-1', onlyProblems: false, showInternal: false })).toEqual(['orders-1']);
    expect(keys({ text: '', onlyProblems: true, showInternal: false })).toEqual(['orders-1']);
    expect(keys({ text: '', onlyProblems: false, showInternal: true })).toHaveLength(3);
  });
});

describe('the health counts', () => {
  it('count offline, under-replicated and under min ISR partitions, and name the active controller', () => {
    const health = selectHealth(
      snapshotWith([
        partition(0),
        partition(1, { isr: [4, 5] }),
        partition(2, { isr: [4] }),
        partition(3, { leader: -1, isr: [4] }),
      ]),
    );
    expect(health).toEqual({
      partitions: 4,
      offline: 1,
      underReplicated: 3,
      underMinIsr: 2,
      activeController: 1,
      controllerEpoch: 3,
    });
  });

  it('report no active controller before the first snapshot', () => {
    expect(selectHealth(null)).toMatchObject({ offline: 0, activeController: null });
  });
});

describe('the event log', () => {
  const event = (type: string, fields: Partial<SimEvent> = {}): SimEvent => ({
    seq: 0,
    timeMs: 1500,
    type,
    message: `${type} happened`,
    ...fields,
  });

  it('puts each Kafka event in its kind', () => {
    expect(eventCategory('LeaderElected')).toBe('elections');
    expect(eventCategory('BrokerFenced')).toBe('fencing');
    expect(eventCategory('IsrShrunk')).toBe('isr');
    expect(eventCategory('ElrChanged')).toBe('isr');
    expect(eventCategory('ControllerElected')).toBe('quorum');
    expect(eventCategory('ControllerLeaderLost')).toBe('quorum');
    expect(eventCategory('ProduceFailed')).toBe('produce');
    expect(eventCategory('LinkCut')).toBe('network');
    expect(eventCategory('AcknowledgedRecordsLost')).toBe('dataLoss');
    expect(eventCategory('LogTruncated')).toBe('dataLoss');
    expect(eventCategory('NodeCrashed')).toBe('nodes');
  });

  it('guesses the kind of event types it does not know by their names', () => {
    expect(eventCategory('UncleanLeaderElected')).toBe('elections');
    expect(eventCategory('ConsumerGroupRebalanced')).toBe('clients');
    expect(eventCategory('PartitionReassigned')).toBe('admin');
    expect(eventCategory('SomethingNew')).toBe('other');
    expect(EVENT_CATEGORIES.map((c) => c.id)).toContain('other');
  });

  it('selects the partition an event names, before its node', () => {
    expect(eventSelection(event('LeaderElected', { topic: 'orders', partition: 3, nodeId: 5 }))).toEqual({
      kind: 'partition',
      id: 'orders-3',
    });
  });

  it('selects a broker or a controller by the roles of the node', () => {
    const nodes = [node(1, ['controller']), node(4, ['broker']), node(2, ['broker', 'controller'])];
    expect(eventSelection(event('NodeCrashed', { nodeId: 1 }), nodes)).toEqual({ kind: 'controller', id: 1 });
    expect(eventSelection(event('BrokerFenced', { nodeId: 4 }), nodes)).toEqual({ kind: 'broker', id: 4 });
    // A combined node: the controller for quorum events, else the broker.
    expect(eventSelection(event('VoteRequested', { nodeId: 2 }), nodes)).toEqual({
      kind: 'controller',
      id: 2,
    });
    expect(eventSelection(event('MetadataApplied', { nodeId: 2 }), nodes)).toEqual({ kind: 'broker', id: 2 });
    // Without a snapshot, by the event's name.
    expect(eventSelection(event('ControllerElected', { nodeId: 9 }))).toEqual({ kind: 'controller', id: 9 });
  });

  it('selects a consumer group or producer, or nothing', () => {
    expect(eventSelection(event('GroupRebalanced', { groupId: 'g' }))).toEqual({ kind: 'group', id: 'g' });
    expect(eventSelection(event('ProducerFenced', { producerId: 'p' }))).toEqual({
      kind: 'producer',
      id: 'p',
    });
    expect(eventSelection(event('ConsumerCrashed', { consumerId: 'c1' }))).toEqual({
      kind: 'client',
      id: 'c1',
    });
    expect(eventSelection(event('NetworkHealed'))).toBeNull();
  });

  it('lists the latest events of the shown kinds, newest first, with their time', () => {
    const events = [
      event('LeaderElected', { seq: 0, topic: 'orders', partition: 0 }),
      event('NodeCrashed', { seq: 1, nodeId: 4, timeMs: 12_345 }),
      event('BrokerFenced', { seq: 2, nodeId: 4 }),
    ];
    const rows = selectEventLogRows(events, new Set(['nodes', 'elections']), [node(4, ['broker'])]);
    expect(rows.map((r) => r.seq)).toEqual([1, 0]);
    expect(rows[0]).toMatchObject({
      time: '12.3 s',
      type: 'NodeCrashed',
      categoryLabel: 'Node crashes and restarts',
      selection: { kind: 'broker', id: 4 },
    });
    expect(selectEventLogRows(events, new Set(EVENT_CATEGORIES.map((c) => c.id)), [], 2)).toHaveLength(2);
  });
});

describe('Kafka errors placed on form fields', () => {
  it('puts INVALID_REPLICATION_FACTOR next to the replication factor', () => {
    expect(
      fieldErrors(
        'INVALID_REPLICATION_FACTOR: The target replication factor of 9 cannot be reached because only 6 broker(s) are registered.',
      ),
    ).toEqual([
      {
        field: 'replicationFactor',
        code: 'INVALID_REPLICATION_FACTOR',
        message:
          'The target replication factor of 9 cannot be reached because only 6 broker(s) are registered.',
      },
    ]);
  });

  it('puts INVALID_CONFIG next to the config it names', () => {
    const [error] = fieldErrors(
      'INVALID_CONFIG: Invalid value 0 for configuration min.insync.replicas: Value must be at least 1',
    );
    expect(error).toMatchObject({ field: 'config:min.insync.replicas', code: 'INVALID_CONFIG' });
  });

  it('reads the field from a validation path, config keys with dots included, and names the Kafka error', () => {
    expect(
      fieldErrors(
        'command.config.min.insync.replicas: Invalid value -1 for configuration min.insync.replicas: Value must be at least 1',
      )[0],
    ).toEqual({
      field: 'config:min.insync.replicas',
      code: 'INVALID_CONFIG',
      message: 'Invalid value -1 for configuration min.insync.replicas: Value must be at least 1',
    });
    expect(fieldErrors('command.configs.foo.bar: Unknown topic config name: foo.bar')[0]?.field).toBe(
      'config:foo.bar',
    );
    expect(fieldErrors('command.partitions: must be an integer of at least 1')[0]).toMatchObject({
      field: 'partitions',
      code: 'INVALID_PARTITIONS',
    });
    expect(fieldErrors('command.topics[0]: no topic "x"')[0]?.field).toBe('topics');
  });

  it('puts topic name errors next to the name', () => {
    expect(
      fieldErrors(
        "command.name: Topic name is invalid: 'bad name!' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'",
      )[0],
    ).toMatchObject({ field: 'name', code: 'INVALID_TOPIC_EXCEPTION' });
    expect(fieldErrors("TOPIC_ALREADY_EXISTS: Topic 'orders' already exists.")[0]?.field).toBe('name');
    expect(fieldErrors("command.name: Topic 'orders' already exists.")[0]?.code).toBe('TOPIC_ALREADY_EXISTS');
  });

  it('splits the issues of one refusal, joined by "; ", onto their fields', () => {
    expect(
      fieldErrors(
        'command.name: Topic name is invalid: the empty string is not allowed; command.partitions: must be an integer of at least 1; command.replicationFactor: must be an integer of at least 1',
      ).map((e) => [e.field, e.code]),
    ).toEqual([
      ['name', 'INVALID_TOPIC_EXCEPTION'],
      ['partitions', 'INVALID_PARTITIONS'],
      ['replicationFactor', 'INVALID_REPLICATION_FACTOR'],
    ]);
  });

  it('names an unknown topic and a client that is already running', () => {
    expect(fieldErrors('command.resourceName: no topic "nope"')[0]).toMatchObject({
      field: 'resourceName',
      code: 'UNKNOWN_TOPIC_OR_PARTITION',
    });
    expect(fieldErrors('producer producer-1 is already running; stop it first')[0]?.field).toBe('producerId');
    expect(fieldErrors('consumer consumer-1 is already running')[0]?.field).toBe('consumerId');
  });

  it('keeps an error about no field for the form as a whole', () => {
    expect(
      fieldErrors('REQUEST_TIMED_OUT: no active controller (the quorum has no leader)')[0],
    ).toMatchObject({
      field: null,
      code: 'REQUEST_TIMED_OUT',
    });
    expect(fieldErrors('node 4 is not running')[0]).toEqual({
      field: null,
      code: null,
      message: 'node 4 is not running',
    });
  });

  it('groups every line of a refusal by form field, with aliases', () => {
    const byField = errorsByField(
      'command.name: Topic name is invalid: x\ncommand.config.min.insync.replicas: Invalid value 0 for configuration min.insync.replicas: Value must be at least 1',
      { 'config:min.insync.replicas': 'minIsr' },
    );
    expect(byField.get('name')).toEqual(['INVALID_TOPIC_EXCEPTION: Topic name is invalid: x']);
    expect(byField.get('minIsr')?.[0]).toMatch(/^INVALID_CONFIG: Invalid value 0/);
    expect(errorsByField(null).size).toBe(0);
  });
});

describe('the ledger outcome', () => {
  const entry = (fields: Partial<LedgerEntry>): LedgerEntry => ({
    recordId: 7,
    producerId: 'console-producer',
    topic: 'orders',
    partition: 0,
    offset: -1,
    key: null,
    value: 'hello',
    acks: 'all',
    status: 'pending',
    sentAtMs: 0,
    attempts: [],
    ...fields,
  });

  it('says where an acknowledged record landed', () => {
    expect(ledgerRow(entry({ status: 'acked', offset: 3 })).outcome).toBe('acked at offset 3');
    expect(ledgerRow(entry({ status: 'acked', acks: 0 })).outcome).toMatch(/acks=0/);
  });

  it('names Kafka’s error of a failed or retried record', () => {
    expect(ledgerRow(entry({ status: 'failed', error: 'NOT_ENOUGH_REPLICAS' })).outcome).toBe(
      'failed: NOT_ENOUGH_REPLICAS',
    );
    expect(ledgerRow(entry({ error: 'NOT_ENOUGH_REPLICAS' })).outcome).toBe(
      'pending, retrying after NOT_ENOUGH_REPLICAS',
    );
    expect(ledgerRow(entry({})).key).toBe('null');
  });

  it('sums up a send with its errors first', () => {
    expect(
      ledgerSummary([
        entry({ error: 'NOT_ENOUGH_REPLICAS' }),
        entry({ status: 'acked', offset: 1, recordId: 8 }),
      ]),
    ).toBe('NOT_ENOUGH_REPLICAS. 1 acked, 1 pending, 0 failed.');
    expect(ledgerSummary([])).toBe('');
  });
});

describe('the inspector', () => {
  it('shows every field of a partition with the dashboard flags', () => {
    const view = selectInspector(snapshotWith([partition(0, { isr: [4] })]), {
      kind: 'partition',
      id: 'orders-0',
    });
    expect(view?.title).toBe('Partition orders-0');
    const fields = Object.fromEntries(view!.fields.map((f) => [f.label, f.value]));
    expect(fields).toMatchObject({
      Topic: 'orders',
      Replicas: '4, 5, 6',
      'ISR (in-sync replicas)': '4',
      'ELR (eligible leader replicas, KIP-966)': 'none',
      'Under min ISR': 'yes',
      'min.insync.replicas': '2',
    });
  });

  it('shows a node, and nothing for what is not in the cluster', () => {
    const snapshot = snapshotWith([]);
    const view = selectInspector(snapshot, { kind: 'broker', id: 4 });
    expect(view?.title).toBe('Broker 4');
    expect(view?.fields).toContainEqual({ label: 'Fenced', value: 'no' });
    expect(selectInspector(snapshot, { kind: 'controller', id: 1 })?.fields).toContainEqual({
      label: 'Active controller',
      value: 'yes',
    });
    expect(selectInspector(snapshot, { kind: 'broker', id: 42 })).toBeNull();
    expect(selectInspector(null, { kind: 'broker', id: 4 })).toBeNull();
  });

  it('lists what can be inspected, and round-trips a choice through the select value', () => {
    const groups = selectInspectables(snapshotWith([partition(0)]));
    expect(groups.map((g) => g.label)).toEqual(['Brokers', 'Controllers', 'Partitions']);
    for (const option of groups.flatMap((g) => g.options))
      expect(parseSelectionValue(selectionValue(option.selection))).toEqual(option.selection);
    expect(parseSelectionValue('broker:x')).toBeNull();
    expect(parseSelectionValue('nothing')).toBeNull();
  });

  it('reads a partition id whose topic holds dashes', () => {
    expect(parsePartitionId('my-topic-12')).toEqual({ topic: 'my-topic', partition: 12 });
    expect(parsePartitionId('orders')).toBeNull();
  });
});

describe('the forms', () => {
  it('parse key=value configs, typed, with an empty value to delete', () => {
    expect(
      parseConfigEntries('min.insync.replicas=2, unclean.leader.election.enable=true\ncleanup.policy='),
    ).toEqual({
      ok: true,
      configs: { 'min.insync.replicas': 2, 'unclean.leader.election.enable': true, 'cleanup.policy': null },
    });
    expect(parseConfigEntries('retention.ms')).toMatchObject({ ok: false });
    expect(parseConfigEntries(' ')).toMatchObject({ ok: false });
  });

  it('isolate a node or a rack from every other node', () => {
    const snapshot = snapshotWith([]);
    expect(isolationGroups(snapshot, [4])).toEqual([[4], [1, 5, 6]]);
    expect(selectRacks(snapshot)).toEqual([
      { rack: 'zone-a', nodeIds: [1, 4] },
      { rack: 'zone-b', nodeIds: [5, 6] },
    ]);
  });

  it('pick the next free client id', () => {
    expect(nextFreeId('consumer-', ['consumer-1', 'consumer-3'])).toBe('consumer-2');
  });
});

describe('the partition matrix', () => {
  const rows = [
    dashboardRow(partition(0, {}, 'audit'), 2),
    dashboardRow(partition(1, {}, 'audit'), 2),
    dashboardRow(partition(0, { isr: [4, 5] }, 'orders'), 2),
    dashboardRow(partition(1, { isr: [4] }, 'orders'), 2),
    dashboardRow(partition(2, {}, 'orders'), 2),
    dashboardRow(partition(0, { leader: -1, isr: [] }, 'payments'), 2),
    dashboardRow(partition(0, {}, '__consumer_offsets'), 1),
  ];

  it('draws a cell a partition, by partition number, in its worst state', () => {
    const m = partitionMatrix(rows);
    const orders = m.topics.find((t) => t.topic === 'orders')!;
    expect(orders.cells).toEqual(['underReplicated', 'underMinIsr', 'healthy']);
    expect(m.counts).toEqual({ offline: 1, underMinIsr: 1, underReplicated: 1, healthy: 3 });
    expect(m.partitions).toBe(6);
  });

  it('puts the worst topics first and leaves internal topics out unless asked', () => {
    expect(partitionMatrix(rows).topics.map((t) => t.topic)).toEqual(['payments', 'orders', 'audit']);
    expect(partitionMatrix(rows, true).topics.map((t) => t.topic)).toContain('__consumer_offsets');
  });

  it("says each topic's problems in words", () => {
    const [payments, orders, audit] = partitionMatrix(rows).topics;
    expect(topicSummary(orders!)).toBe('orders: 1 under min ISR, 1 under-replicated of 3');
    expect(topicSummary(payments!)).toBe('payments: 1 offline of 1');
    expect(topicSummary(audit!)).toBe('audit: all healthy of 2');
  });
});
