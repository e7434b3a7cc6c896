import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../sim/types';
import {
  aclText,
  nextNodeId,
  parseNodeId,
  parseReplicaList,
  planView,
  refusalMessages,
  selectAcls,
  selectBrokerOptions,
  selectBrokerRacks,
  selectConfigRows,
  selectLeadership,
  selectReassignmentRows,
  selectTopicPartitions,
} from './operations';

const snap = (fields: Partial<Snapshot>) => fields as Snapshot;

describe('parseReplicaList', () => {
  it('reads broker ids separated by commas', () => {
    expect(parseReplicaList(' 4,5, 6 ')).toEqual({ ok: true, replicas: [4, 5, 6] });
  });
  it('refuses empty input, non-ids and duplicates', () => {
    expect(parseReplicaList(' ').ok).toBe(false);
    expect(parseReplicaList('4,x')).toEqual({ ok: false, error: '"x" is not a broker id.' });
    expect(parseReplicaList('4,4')).toEqual({ ok: false, error: 'Broker 4 is listed twice.' });
  });
});

describe('selectTopicPartitions', () => {
  it('groups partitions by topic, user topics first', () => {
    const partitions = [
      { topic: '__consumer_offsets', partition: 0 },
      { topic: 'orders', partition: 1 },
      { topic: 'orders', partition: 0 },
      { topic: 'audit', partition: 0 },
    ];
    expect(selectTopicPartitions(snap({ partitions } as Partial<Snapshot>))).toEqual([
      { topic: 'audit', partitions: [0] },
      { topic: 'orders', partitions: [0, 1] },
      { topic: '__consumer_offsets', partitions: [0] },
    ]);
    expect(selectTopicPartitions(null)).toEqual([]);
  });
});

describe('selectReassignmentRows', () => {
  it('says in words which replicas are being added and removed', () => {
    const rows = selectReassignmentRows(
      snap({
        reassignments: [
          {
            topic: 'orders',
            partition: 0,
            replicas: [4, 5, 6, 7],
            adding: [7],
            removing: [4],
            progress: [{ brokerId: 7, logEndOffset: 10, leaderLogEndOffset: 40 }],
          },
        ],
      }),
    );
    expect(rows).toEqual([
      {
        key: 'orders-0',
        partition: 'orders-0',
        text: 'replicas 4, 5, 6, 7; adding 7; removing 4 (broker 7 copied 10 of 40 records)',
      },
    ]);
    expect(selectReassignmentRows(null)).toEqual([]);
  });
});

describe('selectLeadership', () => {
  it('lists leaders per broker and the imbalance in words', () => {
    const view = selectLeadership(
      snap({
        leadership: {
          brokers: [
            {
              brokerId: 5,
              leaders: 0,
              preferredLeaders: 2,
              replicas: 3,
              notLedByPreferred: 2,
              imbalanceRatio: 1,
            },
            {
              brokerId: 4,
              leaders: 4,
              preferredLeaders: 2,
              replicas: 3,
              notLedByPreferred: 0,
              imbalanceRatio: 0,
            },
          ],
          partitionsNotLedByPreferred: 2,
          maxLeaders: 4,
          minLeaders: 0,
        },
      }),
    );
    expect(view?.rows.map((r) => [r.brokerId, r.leaders, r.imbalance])).toEqual([
      [4, 4, '0%'],
      [5, 0, '100%'],
    ]);
    expect(view?.text).toBe(
      '2 partitions are not led by their preferred leader; leaders per broker range from 0 to 4.',
    );
    expect(selectLeadership(null)).toBeNull();
  });
});

describe('selectConfigRows', () => {
  it('names the brokers that applied a change and those still pending', () => {
    const rows = selectConfigRows(
      snap({
        configs: [
          {
            resourceType: 'topic',
            resourceName: 'orders',
            name: 'min.insync.replicas',
            value: 3,
            appliedBy: [4, 5, 6],
            pendingOn: [7],
          },
          {
            resourceType: 'cluster',
            resourceName: '',
            name: 'log.retention.ms',
            value: 1000,
            appliedBy: [4],
            pendingOn: [],
          },
        ],
      }),
    );
    expect(rows.map((r) => `${r.change} — ${r.propagation}`)).toEqual([
      'topic orders: min.insync.replicas=3 — applied by 4, 5, 6; pending on 7',
      'cluster: log.retention.ms=1000 — applied by 4; applied everywhere',
    ]);
  });
});

describe('selectAcls', () => {
  it('describes each ACL in words', () => {
    const acl = {
      principal: 'User:*',
      operation: 'Write' as const,
      resourceType: 'topic' as const,
      resourceName: 'orders',
      permission: 'deny' as const,
    };
    expect(aclText(acl)).toBe('deny User:* Write on topic orders (literal)');
    expect(
      selectAcls(snap({ security: { enforced: true, acls: [acl], listener: 'PLAINTEXT', clients: [] } })),
    ).toEqual([{ key: aclText(acl), acl, text: aclText(acl) }]);
    expect(selectAcls(null)).toEqual([]);
  });
});

describe('refusalMessages', () => {
  it('drops the command path of a validation issue and keeps error names', () => {
    expect(refusalMessages('command.partitions[0].replicas[2]: no broker 42 in this cluster')).toEqual([
      'no broker 42 in this cluster',
    ]);
    expect(refusalMessages('INVALID_REPLICA_ASSIGNMENT: duplicate')).toEqual([
      'INVALID_REPLICA_ASSIGNMENT: duplicate',
    ]);
    expect(refusalMessages(null)).toBeUndefined();
  });
});

describe('adding a broker', () => {
  const nodes = [
    { id: 1, roles: ['controller'], rack: null },
    { id: 5, roles: ['broker'], rack: 'zone-b' },
    { id: 4, roles: ['broker'], rack: 'zone-a' },
    { id: 6, roles: ['broker'], rack: 'zone-a' },
  ] as Snapshot['nodes'];
  it('offers the next free node id and the racks the brokers are in', () => {
    expect(nextNodeId(snap({ nodes }))).toBe(7);
    expect(nextNodeId(null)).toBe(1);
    expect(selectBrokerRacks(snap({ nodes }))).toEqual(['zone-a', 'zone-b']);
    expect(selectBrokerOptions(snap({ nodes })).map((b) => b.label)).toEqual([
      'broker 4 (zone-a)',
      'broker 5 (zone-b)',
      'broker 6 (zone-a)',
    ]);
  });
  it('reads a node id, refusing anything but a positive integer', () => {
    expect(parseNodeId(' 10 ')).toEqual({ ok: true, nodeId: 10 });
    expect(parseNodeId('0').ok).toBe(false);
    expect(parseNodeId('x').ok).toBe(false);
  });
});

describe('a generated plan', () => {
  it('shows current and proposed replicas side by side, counts what moves, and executes only the changes', () => {
    const view = planView({
      current: [
        { topic: 'orders', partition: 0, replicas: [4, 5, 6] },
        { topic: 'orders', partition: 1, replicas: [5, 6, 4] },
        { topic: 'orders', partition: 2, replicas: [6, 4, 5] },
      ],
      proposed: [
        { topic: 'orders', partition: 0, replicas: [7, 5, 6] },
        { topic: 'orders', partition: 1, replicas: [6, 5, 4] },
        { topic: 'orders', partition: 2, replicas: [6, 4, 5] },
      ],
    });
    expect(view.rows).toEqual([
      {
        key: 'orders-0',
        partition: 'orders-0',
        current: '4, 5, 6',
        proposed: '7, 5, 6',
        moved: '1 (adds 7, removes 4)',
      },
      {
        key: 'orders-1',
        partition: 'orders-1',
        current: '5, 6, 4',
        proposed: '6, 5, 4',
        moved: '0 (preferred leader 5 → 6)',
      },
      {
        key: 'orders-2',
        partition: 'orders-2',
        current: '6, 4, 5',
        proposed: '6, 4, 5',
        moved: '0',
      },
    ]);
    expect(view.summary).toBe('1 of 9 replicas moves; 2 of 3 partitions change.');
    expect(view.execute).toEqual([
      { topic: 'orders', partition: 0, replicas: [7, 5, 6] },
      { topic: 'orders', partition: 1, replicas: [6, 5, 4] },
    ]);
  });
});
