// The lesson library: one lesson per concept of the course texts, each a short guided sequence on
// the real simulator. lessons.test.ts plays every lesson headless to its end.
import {
  acked,
  allLed,
  brokerUp,
  elapsed,
  eventsSince,
  lessonCluster,
  metadataCaughtUp,
  nodeOf,
  oneLeaderPerEpoch,
  partitionOf,
  partitionsOf,
  producerOf,
} from './predicates';
import { presets } from '..';
import type { Command } from '..';
import type { Lesson, LessonStep } from './types';

const bootStep = (text: string, topic?: string): LessonStep => ({
  id: 'boot',
  title: 'The cluster starts',
  term: 'KRaft cluster',
  text,
  until: ({ snapshot }) => snapshot.quorum.leaderId !== null && allLed(snapshot, topic),
  waitMs: 20_000,
});

type Produce = Extract<Command, { type: 'produce' }>;

/** A produce command: records of `value` from `producerId`, acks=all and no key unless `more` says otherwise. */
const produce = (
  producerId: string,
  topic: string,
  value: string,
  more: Partial<Pick<Produce, 'key' | 'partition' | 'count' | 'acks'>> = {},
): Produce => ({ type: 'produce', topic, key: null, value, acks: 'all', producerId, ...more });

/** One partition on brokers 2, 3 and 4 (2 leads), replication factor 3. */
const onePartitionOn234 = (name: string, minInsyncReplicas = 2) => ({
  name,
  partitions: 1,
  replicationFactor: 3,
  assignment: [[2, 3, 4]],
  config: { 'min.insync.replicas': minInsyncReplicas },
});

const threeBrokers = (topics: Parameters<typeof lessonCluster>[0]['topics'], config = {}) =>
  lessonCluster({
    controllers: [{ id: 1 }],
    brokers: [{ id: 2 }, { id: 3 }, { id: 4 }],
    config,
    topics,
  });

// ---- 1 ----------------------------------------------------------------------------------------

const partitionsAndKeys: Lesson = {
  id: 'partitions-and-keys',
  number: 1,
  title: 'Brokers, topics, partitions and keys',
  summary:
    'A cluster shares the load of a topic by cutting it into partitions spread over the brokers; a key keeps related records together and in order.',
  concepts: ['broker', 'cluster', 'topic', 'partition', 'partition leader', 'record key', 'ordering'],
  scenario: threeBrokers([]),
  steps: [
    {
      ...bootStep(
        'Three brokers (2, 3 and 4) and one controller (1) form a cluster: to an application it looks like one big server. It has no topic yet.',
      ),
      until: ({ snapshot }) =>
        snapshot.quorum.leaderId !== null && [2, 3, 4].every((b) => brokerUp(snapshot, b)),
    },
    {
      id: 'spread',
      title: 'Partitions spread the load',
      term: 'partition',
      text: 'An operator creates the topic "orders" with 6 partitions (kafka-topics --create --partitions 6 --replication-factor 3). Each partition is an independent, ordered log with one leader broker that takes its writes; the controller decides where they go.',
      commands: [{ type: 'createTopic', name: 'orders', partitions: 6, replicationFactor: 3 }],
      predict: {
        question: 'How many partitions of "orders" does each broker lead?',
        choices: ['All 6 are led by broker 2', 'Two each', 'It changes with every write'],
        answer: 1,
        answerHolds: ({ snapshot }) =>
          [2, 3, 4].every((b) => partitionsOf(snapshot, 'orders').filter((p) => p.leader === b).length === 2),
        explanation:
          'Kafka spreads partition leaders evenly, so each broker serves about a third of the traffic: more brokers, more throughput.',
      },
      until: ({ snapshot }) => allLed(snapshot, 'orders'),
    },
    {
      id: 'same-key',
      title: 'A key picks the partition',
      term: 'record key',
      text: 'A producer sends three records with the key "customer-42". The default partitioner hashes the key (murmur2) to choose the partition.',
      commands: [produce('shop', 'orders', 'order', { key: 'customer-42', count: 3 })],
      predict: {
        question: 'Where do the three records with key "customer-42" go?',
        choices: [
          'One to each of three partitions, to share the load',
          'All three to the same partition, at offsets 0, 1 and 2 in the order sent',
          'To whichever broker answers first',
        ],
        answer: 1,
        answerHolds: ({ snapshot }) => partitionsOf(snapshot, 'orders').some((p) => p.highWatermark === 3),
        explanation:
          'The same key always hashes to the same partition, and a partition keeps its records in the order they were written: order holds per key.',
      },
      until: ({ snapshot }) => acked(snapshot, 'shop') === 3,
      waitMs: 10_000,
    },
    {
      id: 'other-key',
      title: 'Order only within a partition',
      term: 'ordering',
      text: 'Another customer\'s records, key "customer-7", may land in another partition. Kafka orders records within a partition, never across partitions: that is the price of parallel speed.',
      commands: [produce('shop', 'orders', 'order', { key: 'customer-7' })],
      until: ({ snapshot }) => acked(snapshot, 'shop') === 4,
      waitMs: 10_000,
    },
  ],
};

// ---- 2 ----------------------------------------------------------------------------------------

const replication: Lesson = {
  id: 'replication',
  number: 2,
  title: 'Replication, leaders and followers',
  summary:
    'The replication factor is the number of copies of each partition; the leader takes the writes and followers fetch them.',
  concepts: ['replication', 'replication factor', 'replica', 'leader', 'follower', 'fetch', 'LEO'],
  scenario: threeBrokers([onePartitionOn234('payments')]),
  steps: [
    bootStep(
      'The topic "payments" has one partition with replication factor 3: three copies, on brokers 2, 3 and 4, never two on the same broker.',
      'payments',
    ),
    {
      id: 'copies',
      title: 'Every write is copied',
      term: 'replication factor',
      text: 'A producer writes 5 records with acks=all. Broker 2 is the leader: it appends them to its log, and the followers 3 and 4 fetch them.',
      commands: [produce('bank', 'payments', 'payment', { count: 5 })],
      predict: {
        question: 'Once the writes are acknowledged, how many brokers hold the 5 records?',
        choices: ['Only the leader, broker 2', 'Two of them', 'All three replicas'],
        answer: 2,
        answerHolds: ({ snapshot }) =>
          partitionOf(snapshot, 'payments')!.replicaLogs.filter((r) => r.logEndOffset === 5).length === 3,
        explanation:
          'With replication factor 3, each record lives on three brokers: one broker can die and the data stays.',
      },
      until: ({ snapshot }) =>
        acked(snapshot, 'bank') === 5 &&
        partitionOf(snapshot, 'payments')!.replicaLogs.every((r) => r.logEndOffset === 5),
      waitMs: 10_000,
    },
    {
      id: 'follower-down',
      title: 'Followers copy by fetching',
      term: 'follower',
      text: 'Broker 4 crashes. The leader keeps taking writes: 3 more records arrive while broker 4 is down.',
      commands: [{ type: 'crashNode', nodeId: 4 }, produce('bank', 'payments', 'payment', { count: 3 })],
      predict: {
        question: "What happens to broker 4's copy (its log end offset, LEO) while it is down?",
        choices: [
          'It stays at 5: a follower only has what it fetched',
          'It reaches 8 as well',
          'It is deleted',
        ],
        answer: 0,
        answerHolds: ({ snapshot }) =>
          partitionOf(snapshot, 'payments')!.replicaLogs.find((r) => r.brokerId === 4)?.logEndOffset === 5,
        explanation: 'Followers pull: a crashed follower fetches nothing, so its log ends where it stopped.',
      },
      until: ({ snapshot }) => acked(snapshot, 'bank') === 8,
    },
    {
      id: 'catch-up',
      title: 'A returning follower catches up',
      term: 'log end offset (LEO)',
      text: 'Broker 4 restarts, fetches what it missed from the leader and is an equal copy again.',
      commands: [{ type: 'restartNode', nodeId: 4 }],
      until: ({ snapshot }) =>
        partitionOf(snapshot, 'payments')!.replicaLogs.find((r) => r.brokerId === 4)?.logEndOffset === 8 &&
        partitionOf(snapshot, 'payments')!.isr.includes(4),
    },
  ],
};

// ---- 3 ----------------------------------------------------------------------------------------

const isr: Lesson = {
  id: 'isr',
  number: 3,
  title: 'The in-sync replicas (ISR)',
  summary:
    'A follower that stops fetching for longer than replica.lag.time.max.ms drops out of the ISR, and returns once it has caught up.',
  concepts: ['ISR', 'in-sync replica', 'replica.lag.time.max.ms', 'IsrShrunk', 'IsrExpanded'],
  scenario: threeBrokers([onePartitionOn234('t')]),
  steps: [
    bootStep(
      'Partition t-0 has replicas 2, 3, 4; broker 2 leads. All three are in sync: ISR = {2, 3, 4}.',
      't',
    ),
    {
      id: 'slow-follower',
      title: 'A follower falls behind',
      term: 'replica.lag.time.max.ms',
      text: "Broker 4's fetch requests can no longer reach the leader (the link 4 → 2 is cut one way). Broker 4 is alive and still heartbeats to the controller, but it copies nothing, while a producer keeps writing.",
      task: {
        text: 'Cut the link from broker 4 to broker 2, one way.',
        commands: [{ type: 'cutLink', from: 4, to: 2, oneWay: true }],
      },
      // A follower whose log ends where the leader's does is caught up by definition: new records make 4 fall behind.
      commands: [
        { type: 'produce', topic: 't', key: null, value: 'tick', count: 5, acks: 1, producerId: 'app' },
      ],
      predict: {
        question: 'When does broker 4 leave the ISR?',
        choices: [
          'At once, at its first failed fetch',
          'After replica.lag.time.max.ms (30 s) without catching up',
          'Never: it is still alive',
        ],
        answer: 1,
        answerHolds: (view) => {
          const cut =
            eventsSince(view, 'LinkCut', (e) => e.from === 4)[0] ??
            eventsSince(view, 'NetworkPartitioned')[0];
          const shrunk = eventsSince(view, 'IsrShrunk', (e) => e.topic === 't')[0];
          return cut !== undefined && shrunk !== undefined && shrunk.timeMs - cut.timeMs >= 25_000;
        },
        explanation:
          'The leader removes a follower that has not caught up for replica.lag.time.max.ms (30 s by default): a short hiccup does not shrink the ISR.',
      },
      until: ({ snapshot }) => !partitionOf(snapshot, 't')!.isr.includes(4),
      reveal: 'ISR = {2, 3}: only in-sync replicas can become leader, so broker 4 could not be elected now.',
    },
    {
      id: 'return',
      title: 'It returns',
      term: 'IsrExpanded',
      text: "The link is healed. Broker 4 fetches again, reaches the leader's log end, and the leader adds it back to the ISR.",
      task: { text: 'Heal the network.', commands: [{ type: 'healNetwork' }] },
      until: ({ snapshot }) => partitionOf(snapshot, 't')!.isr.includes(4),
    },
  ],
};

// ---- 4 ----------------------------------------------------------------------------------------

const acksAndMinIsr: Lesson = {
  id: 'acks-and-min-isr',
  number: 4,
  title: 'acks and min.insync.replicas',
  summary:
    'acks is the dial between speed and safety; min.insync.replicas sets how many in-sync copies acks=all needs. Setting it equal to the replication factor removes all failure tolerance.',
  concepts: ['acks', 'acks=0', 'acks=1', 'acks=all', 'min.insync.replicas', 'NOT_ENOUGH_REPLICAS'],
  scenario: {
    ...threeBrokers([onePartitionOn234('t')]),
    // The followers are in another region, 150 ms from the leader: acks=all pays that distance.
    network: {
      latencyMs: 2,
      jitterMs: 1,
      links: [
        { from: 2, to: 3, latencyMs: 150 },
        { from: 3, to: 2, latencyMs: 150 },
        { from: 2, to: 4, latencyMs: 150 },
        { from: 4, to: 2, latencyMs: 150 },
      ],
    },
  },
  steps: [
    bootStep(
      'Topic t: replication factor 3, min.insync.replicas=2. Broker 2 leads partition t-0; its followers 3 and 4 are 150 ms away.',
      't',
    ),
    {
      id: 'dial',
      title: 'The dial between speed and safety',
      term: 'acks',
      text: 'Two producers send 20 records each: "fast" with acks=1 (the leader alone confirms), "safe" with acks=all (every in-sync replica has the record).',
      commands: [
        { type: 'produce', topic: 't', key: null, value: 'fast', count: 20, acks: 1, producerId: 'fast' },
        { type: 'produce', topic: 't', key: null, value: 'safe', count: 20, acks: 'all', producerId: 'safe' },
      ],
      predict: {
        question: 'Which producer gets its acknowledgements sooner?',
        choices: ['acks=1', 'acks=all', 'Both at the same time'],
        answer: 0,
        answerHolds: ({ snapshot }) => {
          const fast = producerOf(snapshot, 'fast')?.latencyP50Ms;
          const safe = producerOf(snapshot, 'safe')?.latencyP50Ms;
          return fast != null && safe != null ? fast < safe : acked(snapshot, 'safe') < 20;
        },
        explanation:
          'acks=1 answers once the leader has written; acks=all waits for the followers to fetch. Speed costs safety: an acks=1 record can be lost if the leader dies before anyone copied it.',
      },
      until: ({ snapshot }) => acked(snapshot, 'fast') === 20,
      waitMs: 10_000,
      reveal: 'acks=1 is done while acks=all still waits for the followers to fetch.',
    },
    {
      id: 'safe-done',
      title: 'acks=all, a little later',
      term: 'acks=all',
      text: 'The acks=all records are acknowledged once both followers have fetched them: every in-sync replica has a copy.',
      until: ({ snapshot }) => acked(snapshot, 'safe') === 20,
      waitMs: 10_000,
    },
    {
      id: 'one-down',
      title: 'One broker down',
      term: 'min.insync.replicas',
      text: 'Broker 4 crashes, and the "safe" producer sends again with acks=all.',
      commands: [
        { type: 'crashNode', nodeId: 4 },
        { type: 'produce', topic: 't', key: null, value: 'safe', acks: 'all', producerId: 'safe' },
      ],
      predict: {
        question: 'With one broker of three down and min.insync.replicas=2, does the acks=all write succeed?',
        choices: [
          'No: acks=all needs all three replicas',
          'Yes: once broker 4 leaves the ISR, the two left are enough',
          'Yes, but the record is kept on the leader only',
        ],
        answer: 1,
        answerHolds: ({ snapshot }) =>
          acked(snapshot, 'safe') === 21 && partitionOf(snapshot, 't')!.isr.length === 2,
        explanation:
          'acks=all means "every replica in the ISR". The ISR shrinks to {2, 3} once broker 4 is fenced, and two copies meet min.insync.replicas=2.',
      },
      until: ({ snapshot }) => acked(snapshot, 'safe') === 21,
      waitMs: 90_000,
    },
    {
      id: 'strict',
      title: 'The anti-pattern: min.insync.replicas = replication factor',
      term: 'min.insync.replicas',
      text: 'An operator sets min.insync.replicas=3 on t "for maximum safety", while broker 4 is still down.',
      task: {
        text: 'Set min.insync.replicas to 3 on topic t.',
        commands: [
          {
            type: 'alterConfig',
            resourceType: 'topic',
            resourceName: 't',
            configs: { 'min.insync.replicas': 3 },
          },
        ],
      },
      until: (view) =>
        view.snapshot.topics.find((t) => t.name === 't')?.config['min.insync.replicas'] === 3 &&
        metadataCaughtUp(view.snapshot) &&
        elapsed(view) >= 1000,
    },
    {
      id: 'rejected',
      title: 'Writes refused',
      term: 'NOT_ENOUGH_REPLICAS',
      text: 'The "safe" producer sends one more record with acks=all.',
      commands: [{ type: 'produce', topic: 't', key: null, value: 'safe', acks: 'all', producerId: 'safe' }],
      predict: {
        question: 'What does the acks=all write get now?',
        choices: [
          'It succeeds on the two brokers left',
          'NOT_ENOUGH_REPLICAS, until a third replica is in sync',
          'It waits forever',
        ],
        answer: 1,
        answerHolds: (view) =>
          eventsSince(view, 'ProduceFailed', (e) => e.error === 'NOT_ENOUGH_REPLICAS').length > 0 ||
          (producerOf(view.snapshot, 'safe')?.retries ?? 0) > (producerOf(view.start, 'safe')?.retries ?? 0),
        explanation:
          'With min.insync.replicas equal to the replication factor, losing any one broker stops every acks=all write: no failure tolerance at all. Use min.insync.replicas = replication factor − 1.',
      },
      until: (view) =>
        (producerOf(view.snapshot, 'safe')?.retries ?? 0) > (producerOf(view.start, 'safe')?.retries ?? 0) ||
        eventsSince(view, 'ProduceFailed').length > 0,
      waitMs: 150_000,
    },
  ],
};

// ---- 5 ----------------------------------------------------------------------------------------

const brokerDies: Lesson = {
  id: 'broker-failure',
  number: 5,
  title: 'A broker dies',
  summary:
    'The controller notices missing heartbeats, fences the broker, elects new leaders from the ISR, and clients follow the new metadata.',
  concepts: [
    'heartbeat',
    'broker.session.timeout.ms',
    'fenced',
    'leader election',
    'leader epoch',
    'failover',
  ],
  scenario: lessonCluster({
    controllers: [{ id: 1 }, { id: 2 }, { id: 3 }],
    brokers: [{ id: 4 }, { id: 5 }, { id: 6 }],
    topics: [
      {
        name: 't',
        partitions: 3,
        replicationFactor: 3,
        assignment: [
          [4, 5, 6],
          [5, 6, 4],
          [6, 4, 5],
        ],
        config: { 'min.insync.replicas': 2 },
      },
    ],
  }),
  steps: [
    bootStep('Three controllers (1, 2, 3) and three brokers (4, 5, 6). Broker 4 leads partition t-0.', 't'),
    {
      id: 'warm',
      title: 'A producer at work',
      term: 'metadata',
      text: 'An application writes to t-0. It asked a broker for the cluster metadata and sends straight to the leader, broker 4.',
      commands: [produce('app', 't', 'before', { partition: 0 })],
      until: ({ snapshot }) => acked(snapshot, 'app') === 1,
      waitMs: 10_000,
    },
    {
      id: 'crash',
      title: 'Broker 4 crashes',
      term: 'heartbeat',
      text: 'Broker 4 loses power. Every broker sends a heartbeat to the active controller every 2 s (broker.heartbeat.interval.ms). The controller counts broker.session.timeout.ms (9 s) from the last heartbeat it received, so it acts 7 to 9 s after the crash.',
      task: { text: 'Crash broker 4.', commands: [{ type: 'crashNode', nodeId: 4 }] },
      predict: {
        question: 'When does the controller declare broker 4 dead (fenced)?',
        choices: [
          'At once',
          'When no heartbeat came for broker.session.timeout.ms (9 s since the last one)',
          'Only when an operator removes it',
        ],
        answer: 1,
        answerHolds: (view) => {
          const crashed = eventsSince(view, 'NodeCrashed', (e) => e.nodeId === 4)[0];
          const fenced = eventsSince(view, 'BrokerFenced', (e) => e.nodeId === 4)[0];
          if (!crashed || !fenced) return false;
          // broker.session.timeout.ms from the last heartbeat, which came at most one interval before the crash.
          const after = fenced.timeMs - crashed.timeMs;
          return after > 9000 - 2000 - 500 && after <= 9000 + 500;
        },
        explanation:
          "Heartbeats are the controller's only sign of life; after broker.session.timeout.ms without one, it fences the broker.",
      },
      until: (view) => eventsSince(view, 'BrokerFenced', (e) => e.nodeId === 4).length > 0,
      waitMs: 20_000,
    },
    {
      id: 'election',
      title: 'A new leader from the ISR',
      term: 'leader election',
      text: 'Fencing broker 4 takes it out of every ISR. For each partition it led, the controller picks a new leader and writes the change to the metadata log.',
      predict: {
        question: 'Who leads t-0 now?',
        choices: [
          'Still broker 4, waiting for it to return',
          'An in-sync follower, 5 or 6, at a higher leader epoch',
          'No one until an operator acts',
        ],
        answer: 1,
        answerHolds: ({ snapshot }) => {
          const p = partitionOf(snapshot, 't')!;
          return [5, 6].includes(p.leader) && p.isr.includes(p.leader) && p.leaderEpoch > 0;
        },
        explanation:
          'Only an ISR member may lead, so the new leader has every acknowledged record. The leader epoch rises, so stale requests to the old leader are refused.',
      },
      until: ({ snapshot }) => [5, 6].includes(partitionOf(snapshot, 't')!.leader),
    },
    {
      id: 'redirect',
      title: 'Clients follow',
      term: 'metadata refresh',
      text: 'The producer writes to t-0 again. Its cached metadata still names broker 4.',
      commands: [produce('app', 't', 'after', { partition: 0 })],
      predict: {
        question: 'What happens to the write?',
        choices: [
          'It fails: broker 4 is gone',
          'The producer refreshes its metadata, sends to the new leader, and the write succeeds',
          "It is written to broker 4's disk for later",
        ],
        answer: 1,
        answerHolds: ({ snapshot }) =>
          acked(snapshot, 'app') === 2 && Object.keys(producerOf(snapshot, 'app')!.failed).length === 0,
        explanation:
          'The producer retries: it learns the new leader from fresh metadata and carries on. No acknowledged record is lost.',
      },
      until: ({ snapshot }) => acked(snapshot, 'app') === 2,
    },
    {
      id: 'return',
      title: 'Broker 4 returns',
      term: 'ISR',
      text: 'Broker 4 restarts, registers again, catches up as a follower and rejoins the ISR.',
      task: { text: 'Restart broker 4.', commands: [{ type: 'restartNode', nodeId: 4 }] },
      until: ({ snapshot }) => partitionOf(snapshot, 't')!.isr.includes(4),
    },
  ],
};

// ---- 6 ----------------------------------------------------------------------------------------

const quorum: Lesson = {
  id: 'kraft-quorum',
  number: 6,
  title: 'The KRaft controller quorum',
  summary:
    'Controllers elect one active controller by majority vote; each term has an epoch, so an isolated old leader can never act beside a new one.',
  concepts: [
    'KRaft',
    'controller quorum',
    'active controller',
    'epoch',
    'majority',
    'split brain',
    '@metadata log',
  ],
  scenario: lessonCluster({
    controllers: [{ id: 1 }, { id: 2 }, { id: 3 }],
    brokers: [{ id: 4 }, { id: 5 }, { id: 6 }],
    topics: [{ name: 't', partitions: 3, replicationFactor: 3, config: { 'min.insync.replicas': 2 } }],
  }),
  steps: [
    bootStep(
      'Controllers 1, 2 and 3 form the quorum. They elected one active controller, which writes every metadata change to the replicated @metadata log.',
      't',
    ),
    {
      id: 'isolate',
      title: 'Cut the active controller off',
      term: 'controller failover',
      text: 'A network partition isolates the active controller: it still runs and still believes it leads, but it cannot reach the others. To them it is as good as crashed: after controller.quorum.fetch.timeout.ms without hearing from it, they hold an election.',
      task: {
        text: 'Partition the network so the active controller is alone.',
        commands: (s) => {
          const leader = s.quorum.leaderId!;
          return [
            {
              type: 'partitionNetwork',
              groups: [[leader], s.nodes.map((n) => n.id).filter((id) => id !== leader)],
            },
          ];
        },
      },
      predict: {
        question: 'Can two controllers act as leader of the same epoch?',
        choices: [
          'Yes, until the network heals',
          'No: the majority side elects a leader at a higher epoch; the isolated one can commit nothing',
          'No, because the isolated one shuts down',
        ],
        answer: 1,
        answerHolds: ({ snapshot, start }) =>
          oneLeaderPerEpoch(snapshot) && snapshot.quorum.epoch > start.quorum.epoch,
        explanation:
          'A leader needs a majority to commit. The isolated controller has only itself, so nothing it does counts; the higher epoch tells everyone which leader is current.',
      },
      until: ({ snapshot, start }) =>
        snapshot.quorum.leaderId !== null && snapshot.quorum.leaderId !== start.quorum.leaderId,
      waitMs: 20_000,
    },
    {
      id: 'heal',
      title: 'The stale leader steps down',
      term: 'epoch',
      text: 'The network heals. The old leader meets the higher epoch, gives up leadership and follows.',
      task: { text: 'Heal the network.', commands: [{ type: 'healNetwork' }] },
      until: ({ snapshot }) =>
        snapshot.quorum.voters.filter((v) => v.state === 'leader').length === 1 &&
        snapshot.quorum.voters.every((v) => v.state === 'leader' || v.epoch === snapshot.quorum.epoch),
      waitMs: 20_000,
    },
    {
      id: 'failover',
      title: 'The active controller crashes',
      term: 'controller failover',
      text: 'Now the active controller dies outright. The other two controllers stop hearing from it.',
      task: {
        text: 'Crash the active controller.',
        commands: (s) => [{ type: 'crashNode', nodeId: s.quorum.leaderId! }],
      },
      predict: {
        question: 'What do the other controllers do?',
        choices: [
          'Nothing until it comes back',
          'They elect a new active controller at a higher epoch (2 of 3 is a majority)',
          'Each of them becomes active on its own',
        ],
        answer: 1,
        answerHolds: ({ snapshot, start }) =>
          snapshot.quorum.epoch > start.quorum.epoch &&
          snapshot.quorum.voters.filter((v) => v.state === 'leader').length === 1,
        explanation:
          'A majority (2 of 3) can elect a leader; the epoch counts the terms. A quorum of 3 tolerates one lost controller, a quorum of 5 two.',
      },
      until: ({ snapshot, start }) =>
        snapshot.quorum.leaderId !== null && snapshot.quorum.leaderId !== start.quorum.leaderId,
      waitMs: 20_000,
    },
    {
      id: 'rejoin',
      title: 'The old controller returns as a follower',
      term: 'epoch',
      text: 'The crashed controller restarts. It sees a higher epoch than its own and follows the new leader.',
      commands: (s) => {
        const down = s.nodes.find((n) => n.roles.includes('controller') && n.state === 'crashed');
        return down ? [{ type: 'restartNode', nodeId: down.id }] : [];
      },
      until: ({ snapshot }) =>
        snapshot.quorum.voters.every(
          (v) => v.state === 'leader' || (v.state === 'follower' && v.epoch === snapshot.quorum.epoch),
        ),
      waitMs: 20_000,
    },
  ],
};

// ---- 7 ----------------------------------------------------------------------------------------

const unclean: Lesson = {
  id: 'unclean-election',
  number: 7,
  title: 'When every in-sync copy is gone',
  summary:
    'With no ISR member left, Kafka waits (safe, unavailable) unless unclean.leader.election.enable lets an out-of-sync replica lead, losing acknowledged records.',
  concepts: [
    'unclean leader election',
    'unclean.leader.election.enable',
    'offline partition',
    'ELR',
    'data loss',
    'log truncation',
  ],
  scenario: threeBrokers(
    [onePartitionOn234('t', 1)],
    // Eligible leader replicas off, to show the classic dilemma first (see the last step).
    { 'eligible.leader.replicas.version': 0 },
  ),
  steps: [
    bootStep('Partition t-0 on brokers 2, 3, 4; min.insync.replicas=1 (a risky setting, on purpose).', 't'),
    {
      id: 'behind',
      title: 'Broker 4 falls out of sync',
      term: 'ISR',
      text: 'Broker 4 crashes and leaves the ISR. Then a record is written and acknowledged by brokers 2 and 3 only.',
      commands: [{ type: 'crashNode', nodeId: 4 }],
      until: ({ snapshot }) => !partitionOf(snapshot, 't')!.isr.includes(4),
      waitMs: 20_000,
    },
    {
      id: 'write',
      title: 'An acknowledged record',
      term: 'acks=all',
      text: 'The producer writes "important" with acks=all; brokers 2 and 3 have it, broker 4 does not.',
      commands: [
        { type: 'produce', topic: 't', key: null, value: 'important', acks: 'all', producerId: 'app' },
      ],
      until: ({ snapshot }) => acked(snapshot, 'app') === 1,
      waitMs: 10_000,
    },
    {
      id: 'last-isr',
      title: 'The in-sync copies die',
      term: 'ISR',
      text: 'Broker 3 crashes too. Broker 2, the leader, is now the only in-sync replica: ISR = {2}. Broker 4 is still down.',
      commands: [{ type: 'crashNode', nodeId: 3 }],
      until: ({ snapshot }) => partitionOf(snapshot, 't')!.isr.length === 1,
      waitMs: 20_000,
    },
    {
      id: 'wait',
      title: 'Wait, or lose data?',
      term: 'offline partition',
      text: 'Now broker 2, the last in-sync replica, crashes, and broker 4, the stale one, restarts. It never got "important". By default unclean.leader.election.enable=false.',
      commands: [
        { type: 'crashNode', nodeId: 2 },
        { type: 'restartNode', nodeId: 4 },
      ],
      predict: {
        question: 'What does the controller do with t-0?',
        choices: [
          'Makes broker 4 the leader at once',
          'Keeps t-0 offline, waiting for an in-sync replica to return',
          'Copies the record from a backup',
        ],
        answer: 1,
        answerHolds: ({ snapshot }) => partitionOf(snapshot, 't')!.leader === -1,
        explanation:
          'Kafka prefers consistency: a partition without an in-sync replica stays offline (no leader) rather than serve a copy that lacks acknowledged records.',
      },
      until: (view) => brokerUp(view.snapshot, 4) && elapsed(view) >= 15_000,
      waitMs: 30_000,
    },
    {
      id: 'unclean',
      title: 'Allow an unclean election',
      term: 'unclean.leader.election.enable',
      text: 'An operator, choosing availability over data, runs an unclean leader election (kafka-leader-election --election-type unclean).',
      task: {
        text: 'Run an unclean leader election for t-0.',
        commands: [
          { type: 'electLeaders', electionType: 'unclean', partitions: [{ topic: 't', partition: 0 }] },
        ],
      },
      predict: {
        question: 'Broker 4 becomes the leader. What happens to "important"?',
        choices: [
          'Nothing: it is safe',
          'It is lost: broker 4 never had it, and acknowledged data is gone',
          'Broker 4 fetches it from broker 2',
        ],
        answer: 1,
        answerHolds: (view) => eventsSince(view, 'AcknowledgedRecordsLost').length > 0,
        explanation:
          "Unclean election trades data for availability: the new leader's log is the truth, so acknowledged records it lacks are gone, and brokers 2 and 3 will truncate theirs to match. With eligible leader replicas (ELR, KIP-966, on in new Kafka 4 clusters) the controller remembers which replicas were safe to elect and waits for one of them instead.",
      },
      until: (view) => partitionOf(view.snapshot, 't')!.leader === 4 && elapsed(view) >= 2000,
      waitMs: 10_000,
    },
    {
      id: 'truncate',
      title: 'The old leader comes back',
      term: 'log truncation',
      text: 'Broker 2 restarts. Its log still holds "important" at offset 0, but the new leader, broker 4, has nothing there.',
      commands: [{ type: 'restartNode', nodeId: 2 }],
      predict: {
        question: 'What does broker 2 do with its copy of "important"?',
        choices: [
          'Sends it to broker 4, so the record comes back',
          'Truncates it: a follower makes its log match the leader (KIP-101/279)',
          'Keeps it, and the two logs stay different',
        ],
        answer: 1,
        answerHolds: (view) => eventsSince(view, 'LogTruncated').some((e) => e.nodeId === 2),
        explanation:
          'A follower asks the leader where their histories part (the diverging leader epoch) and truncates its log to that point. The leader is the truth, even after an unclean election: the record is gone for good.',
      },
      until: (view) => eventsSince(view, 'LogTruncated').some((e) => e.nodeId === 2),
      waitMs: 30_000,
    },
  ],
};

// ---- 8 ----------------------------------------------------------------------------------------

const HOST_X = [7, 8, 9];
const racks: Lesson = {
  id: 'racks-and-zones',
  number: 8,
  title: 'Racks, zones and the one-host trap',
  summary:
    'broker.rack lets Kafka put each replica in a different zone, so a zone outage costs one copy; three brokers on one host die together.',
  concepts: ['broker.rack', 'rack awareness', 'availability zone', 'zone outage', 'single point of failure'],
  scenario: lessonCluster({
    controllers: [
      { id: 1, rack: 'zone-a' },
      { id: 2, rack: 'zone-b' },
      { id: 3, rack: 'zone-c' },
    ],
    brokers: [
      { id: 4, rack: 'zone-a' },
      { id: 5, rack: 'zone-b' },
      { id: 6, rack: 'zone-c' },
      // Three VMs on one physical host: one rack.
      { id: 7, rack: 'host-x' },
      { id: 8, rack: 'host-x' },
      { id: 9, rack: 'host-x' },
    ],
    topics: [
      { name: 'orders', partitions: 4, replicationFactor: 3, config: { 'min.insync.replicas': 2 } },
      {
        name: 'fragile',
        partitions: 1,
        replicationFactor: 3,
        assignment: [HOST_X],
        config: { 'min.insync.replicas': 2 },
      },
    ],
  }),
  steps: [
    bootStep(
      'Brokers 4, 5, 6 sit in zones a, b, c (broker.rack=zone-a ...). Brokers 7, 8, 9 are three VMs on one physical host, rack "host-x". Topic "orders" was placed by Kafka; topic "fragile" was put on 7, 8, 9 by hand.',
    ),
    {
      id: 'placement',
      title: 'Rack-aware placement',
      term: 'broker.rack',
      text: 'Look at the replicas of each "orders" partition and the rack of each broker.',
      predict: {
        question: 'How many replicas of one "orders" partition sit on host-x?',
        choices: [
          'At most one: Kafka puts each replica on a different rack',
          'Usually all three',
          'It depends on the seed',
        ],
        answer: 0,
        answerHolds: ({ snapshot }) =>
          partitionsOf(snapshot, 'orders').every(
            (p) => p.replicas.filter((r) => HOST_X.includes(r)).length <= 1,
          ),
        explanation:
          "With broker.rack set, the placer spreads a partition's replicas over distinct racks, never two in the same one while others are free.",
      },
      until: ({ snapshot }) => allLed(snapshot, 'orders'),
    },
    {
      id: 'zone-outage',
      title: 'Zone A goes dark',
      term: 'availability zone',
      text: 'A power cut takes out zone A: controller 1 and broker 4.',
      task: {
        text: 'Crash controller 1 and broker 4.',
        commands: [
          { type: 'crashNode', nodeId: 1 },
          { type: 'crashNode', nodeId: 4 },
        ],
      },
      predict: {
        question: 'Do all "orders" partitions stay available?',
        choices: [
          'Yes: every partition has copies in other zones, and 2 of 3 controllers still form a majority',
          'No, the partitions led in zone A go offline',
        ],
        answer: 0,
        answerHolds: ({ snapshot }) => allLed(snapshot, 'orders') && snapshot.quorum.leaderId !== null,
        explanation:
          'One copy per zone means one zone outage costs one copy per partition; leaders move to the survivors.',
      },
      until: (view) =>
        eventsSince(view, 'BrokerFenced', (e) => e.nodeId === 4).length > 0 &&
        allLed(view.snapshot, 'orders'),
      waitMs: 30_000,
    },
    {
      id: 'host-dies',
      title: 'The one host dies',
      term: 'single point of failure',
      text: 'The physical host under brokers 7, 8 and 9 fails: three brokers at once.',
      task: {
        text: 'Crash brokers 7, 8 and 9.',
        commands: HOST_X.map((nodeId) => ({ type: 'crashNode' as const, nodeId })),
      },
      predict: {
        question: 'What happens to the topic "fragile", whose three replicas are all on host-x?',
        choices: [
          'It survives: it has three replicas',
          'It goes offline: all three copies died together',
          'It moves to zone B',
        ],
        answer: 1,
        answerHolds: ({ snapshot }) => partitionOf(snapshot, 'fragile')!.leader === -1,
        explanation:
          'Three brokers on one host give the illusion of redundancy. Replicas must be on hardware that fails independently.',
      },
      until: (view) =>
        HOST_X.every((id) => eventsSince(view, 'BrokerFenced', (e) => e.nodeId === id).length > 0),
      waitMs: 30_000,
    },
  ],
};

// ---- 9 ----------------------------------------------------------------------------------------

const bootstrap: Lesson = {
  id: 'bootstrap-and-metadata',
  number: 9,
  title: 'Bootstrap servers, metadata and NOT_LEADER_OR_FOLLOWER',
  summary:
    'bootstrap.servers is only the first contact: the client asks one broker for metadata and then talks to each partition leader directly, refreshing when told it is wrong.',
  concepts: [
    'bootstrap.servers',
    'metadata request',
    'partition leader',
    'NOT_LEADER_OR_FOLLOWER',
    'preferred leader',
  ],
  scenario: threeBrokers([onePartitionOn234('t')]),
  steps: [
    bootStep('Partition t-0 has replicas 2, 3, 4; broker 2 leads.', 't'),
    {
      id: 'bootstrap',
      title: 'First contact',
      term: 'bootstrap.servers',
      text: 'A producer whose bootstrap.servers lists the brokers writes one record to t-0. It first asks one bootstrap broker for the cluster metadata.',
      commands: [produce('app', 't', 'hello', { partition: 0 })],
      predict: {
        question: 'Where does the record go?',
        choices: [
          'To the bootstrap broker, which forwards it to the leader',
          'To the leader, broker 2: the bootstrap broker only answered the metadata request',
          'To all bootstrap servers',
        ],
        answer: 1,
        answerHolds: ({ snapshot }) =>
          producerOf(snapshot, 'app')?.metadataFrom !== null &&
          partitionOf(snapshot, 't')!.leader === 2 &&
          acked(snapshot, 'app') === 1,
        explanation:
          'Only the leader accepts writes. Brokers do not forward: the client learns the leaders from metadata and connects to them directly.',
      },
      until: ({ snapshot }) => acked(snapshot, 'app') === 1,
      waitMs: 10_000,
    },
    {
      id: 'move',
      title: 'Leadership moves',
      term: 'controlled shutdown',
      text: 'Broker 2 is shut down for maintenance. In a controlled shutdown it hands its leaderships over before it stops.',
      commands: [{ type: 'shutdownNode', nodeId: 2 }],
      until: ({ snapshot }) =>
        partitionOf(snapshot, 't')!.leader !== 2 && nodeOf(snapshot, 2)?.state === 'stopped',
      waitMs: 30_000,
    },
    {
      id: 'back',
      title: 'Broker 2 returns',
      term: 'metadata',
      text: 'Broker 2 restarts and rejoins the ISR as a follower. The producer writes again and learns the current leader.',
      commands: [{ type: 'restartNode', nodeId: 2 }, produce('app', 't', 'again', { partition: 0 })],
      until: ({ snapshot }) => partitionOf(snapshot, 't')!.isr.includes(2) && acked(snapshot, 'app') === 2,
    },
    {
      id: 'preferred',
      title: 'Preferred leader election',
      term: 'preferred leader',
      text: 'An operator moves leadership back to broker 2, the preferred (first) replica. The producer has not noticed.',
      task: {
        text: 'Run a preferred leader election.',
        commands: [{ type: 'electLeaders', electionType: 'preferred' }],
      },
      until: (view) =>
        partitionOf(view.snapshot, 't')!.leader === 2 &&
        metadataCaughtUp(view.snapshot) &&
        elapsed(view) >= 1000,
      waitMs: 10_000,
    },
    {
      id: 'stale',
      title: 'A stale leader',
      term: 'NOT_LEADER_OR_FOLLOWER',
      text: 'The producer writes once more, using its cached metadata.',
      commands: [produce('app', 't', 'third', { partition: 0 })],
      predict: {
        question: 'What happens to this write?',
        choices: [
          'It fails for good',
          'The old leader answers NOT_LEADER_OR_FOLLOWER; the producer retries on broker 2 and succeeds',
          'The old leader accepts it anyway',
        ],
        answer: 1,
        answerHolds: ({ snapshot, start }) =>
          (producerOf(snapshot, 'app')?.retries ?? 0) > (producerOf(start, 'app')?.retries ?? 0) &&
          acked(snapshot, 'app') === 3,
        explanation:
          'A broker that is not the leader refuses with NOT_LEADER_OR_FOLLOWER (and names the new leader, KIP-951). The producer updates its metadata and retries.',
      },
      until: ({ snapshot }) => acked(snapshot, 'app') === 3,
      waitMs: 60_000,
    },
  ],
};

// ---- 10 ---------------------------------------------------------------------------------------

const addBroker: Lesson = {
  id: 'adding-a-broker',
  number: 10,
  title: 'Adding a broker',
  summary:
    'A new broker joins empty. Only a partition reassignment moves replicas onto it and makes it share the load.',
  concepts: ['horizontal scaling', 'addNode', 'partition reassignment', 'kafka-reassign-partitions'],
  scenario: threeBrokers([
    { name: 'orders', partitions: 3, replicationFactor: 3, config: { 'min.insync.replicas': 2 } },
  ]),
  steps: [
    bootStep('Three brokers hold every replica of "orders".', 'orders'),
    {
      id: 'data',
      title: 'Some data',
      term: 'partition',
      text: 'A producer writes 30 records over the 3 partitions.',
      commands: [produce('shop', 'orders', 'order', { count: 30 })],
      until: ({ snapshot }) => acked(snapshot, 'shop') === 30,
      waitMs: 10_000,
    },
    {
      id: 'join',
      title: 'Broker 5 joins',
      term: 'horizontal scaling',
      text: 'A fourth broker, 5, is started. It registers with the controller.',
      task: { text: 'Add broker 5.', commands: [{ type: 'addNode', nodeId: 5, roles: ['broker'] }] },
      predict: {
        question: 'Does broker 5 take over some partitions of "orders" on its own?',
        choices: ['Yes, Kafka rebalances at once', 'No: it joins empty', 'Only the leaders move'],
        answer: 1,
        answerHolds: ({ snapshot }) => snapshot.partitions.every((p) => !p.replicas.includes(5)),
        explanation:
          'Existing partitions stay where they are; only new topics may be placed on the new broker.',
      },
      until: (view) => brokerUp(view.snapshot, 5) && elapsed(view) >= 3000,
      waitMs: 20_000,
    },
    {
      id: 'reassign',
      title: 'Move a partition',
      term: 'partition reassignment',
      text: 'The operator reassigns orders-0 to replicas 5, 3, 4. Broker 5 is added as a replica, copies the log, joins the ISR; then the old replica is dropped.',
      task: {
        text: 'Reassign orders-0 to brokers 5, 3, 4.',
        commands: [
          {
            type: 'reassignPartitions',
            partitions: [{ topic: 'orders', partition: 0, replicas: [5, 3, 4] }],
          },
        ],
      },
      until: ({ snapshot }) => {
        const p = partitionOf(snapshot, 'orders')!;
        return p.replicas.join() === '5,3,4' && p.isr.includes(5);
      },
    },
  ],
};

// ---- 11 ---------------------------------------------------------------------------------------

const consumers: Lesson = {
  id: 'consumer-groups',
  number: 11,
  title: 'Consumer groups, offsets and lag',
  summary:
    'Consumers in a group split the partitions; each commits its offsets, and lag is how far the committed offsets trail the high watermark.',
  concepts: [
    'consumer group',
    'rebalance',
    'partition assignment',
    'committed offset',
    'consumer lag',
    'group coordinator',
    'consumer group protocol (KIP-848)',
  ],
  scenario: threeBrokers([
    { name: 'orders', partitions: 4, replicationFactor: 3, config: { 'min.insync.replicas': 2 } },
  ]),
  steps: [
    bootStep('Topic "orders" has 4 partitions.', 'orders'),
    {
      id: 'data',
      title: 'Records to read',
      term: 'offset',
      text: 'A producer writes 40 records. Each gets an offset, its position in its partition.',
      commands: [produce('shop', 'orders', 'order', { count: 40 })],
      until: ({ snapshot }) => acked(snapshot, 'shop') === 40,
      waitMs: 10_000,
    },
    {
      id: 'one',
      title: 'One consumer',
      term: 'consumer group',
      text: 'Consumer c1 joins the group "billing" and subscribes to "orders".',
      commands: [
        {
          type: 'startConsumer',
          consumerId: 'c1',
          groupId: 'billing',
          topics: ['orders'],
          config: { 'auto.offset.reset': 'earliest' },
        },
      ],
      predict: {
        question: 'Which partitions does c1 read?',
        choices: ['Partition 0 only', 'All four', 'None until a second consumer joins'],
        answer: 1,
        answerHolds: ({ snapshot }) =>
          snapshot.clients.consumers.find((c) => c.id === 'c1')?.assignment.length === 4,
        explanation: 'The group coordinator assigns every partition to some member: alone, c1 gets them all.',
      },
      until: ({ snapshot }) => snapshot.clients.consumers.find((c) => c.id === 'c1')?.state === 'stable',
    },
    {
      id: 'two',
      title: 'A second consumer joins',
      term: 'rebalance',
      text: 'Consumer c2 joins the same group.',
      commands: [
        {
          type: 'startConsumer',
          consumerId: 'c2',
          groupId: 'billing',
          topics: ['orders'],
          config: { 'auto.offset.reset': 'earliest' },
        },
      ],
      predict: {
        question: 'How are the 4 partitions shared now?',
        choices: ['c1 keeps all four', 'Two each, after a rebalance', 'Both read all four'],
        answer: 1,
        answerHolds: ({ snapshot }) =>
          ['c1', 'c2'].every(
            (id) => snapshot.clients.consumers.find((c) => c.id === id)?.assignment.length === 2,
          ),
        explanation:
          'Within a group each partition has exactly one reader; a rebalance shares them out as members come and go.',
      },
      until: ({ snapshot }) =>
        ['c1', 'c2'].every((id) => {
          const c = snapshot.clients.consumers.find((x) => x.id === id);
          return c?.state === 'stable' && c.assignment.length > 0;
        }),
    },
    {
      id: 'lag',
      title: 'Nobody reads: lag grows',
      term: 'consumer lag',
      text: 'Both consumers stop (committing their offsets); the producer writes 20 more records.',
      commands: [
        { type: 'stopConsumer', consumerId: 'c1' },
        { type: 'stopConsumer', consumerId: 'c2' },
        produce('shop', 'orders', 'order', { count: 20 }),
      ],
      predict: {
        question: "What is the group's lag once the 20 records are written?",
        choices: [
          '0: the group is empty',
          '20: the high watermarks moved, the committed offsets did not',
          '60',
        ],
        answer: 1,
        answerHolds: ({ snapshot }) =>
          snapshot.clients.groups.find((g) => g.groupId === 'billing')?.totalLag === 20,
        explanation:
          'Lag = high watermark − committed offset, per partition. It is what the group still has to read.',
      },
      until: ({ snapshot }) =>
        acked(snapshot, 'shop') === 60 &&
        (snapshot.clients.groups.find((g) => g.groupId === 'billing')?.totalLag ?? 0) >= 20,
    },
    {
      id: 'resume',
      title: 'Resume from the committed offsets',
      term: 'committed offset',
      text: 'Consumer c3 joins "billing".',
      commands: [{ type: 'startConsumer', consumerId: 'c3', groupId: 'billing', topics: ['orders'] }],
      predict: {
        question: 'Where does c3 start reading?',
        choices: [
          'At the beginning: all 60 records',
          'At the committed offsets: the 20 new records',
          'At the end: nothing',
        ],
        answer: 1,
        answerHolds: ({ snapshot }) =>
          snapshot.clients.consumers.find((c) => c.id === 'c3')?.recordsConsumed === 20,
        explanation:
          "The group's committed offsets survive its members: a new member continues where the group left off.",
      },
      until: ({ snapshot }) => snapshot.clients.groups.find((g) => g.groupId === 'billing')?.totalLag === 0,
    },
    {
      id: 'consumer-protocol',
      title: 'The other protocol: group.protocol=consumer',
      term: 'KIP-848',
      text: 'Group "audit" uses the consumer group protocol of KIP-848 (Kafka 4.0; classic stays the default): d1 and d2 send ConsumerGroupHeartbeat, and the broker, not a member, computes the assignment.',
      commands: ['d1', 'd2'].map((consumerId) => ({
        type: 'startConsumer' as const,
        consumerId,
        groupId: 'audit',
        topics: ['orders'],
        config: { 'group.protocol': 'consumer', 'auto.offset.reset': 'earliest' },
      })),
      until: ({ snapshot }) => {
        const g = snapshot.clients.groups.find((x) => x.groupId === 'audit');
        return g?.state === 'Stable' && g.members.length === 2;
      },
      reveal:
        'The group epoch went up once per member; each member reached it with its share of the target assignment.',
    },
    {
      id: 'incremental',
      title: 'A third member, without stopping the others',
      term: 'member epoch',
      text: 'd3 joins "audit" while the producer writes 20 more records.',
      commands: [
        {
          type: 'startConsumer',
          consumerId: 'd3',
          groupId: 'audit',
          topics: ['orders'],
          config: { 'group.protocol': 'consumer' },
        },
        produce('shop', 'orders', 'order', { count: 20 }),
      ],
      predict: {
        question: 'What do d1 and d2 do while d3 joins?',
        choices: [
          'All members stop and rejoin, as in "billing"',
          'Only the partitions that move are revoked by their owner, then assigned to d3; the rest are read throughout',
          'd3 reads the same partitions as d1 and d2',
        ],
        answer: 1,
        answerHolds: ({ events, start }) => {
          const now = events.filter((e) => e.timeMs >= start.timeMs && e.groupId === 'audit');
          const revoked = now.find((e) => e.type === 'MemberPartitionsRevoked');
          const assigned = now.find((e) => e.type === 'MemberPartitionsAssigned' && e.consumerId === 'd3');
          return (
            !now.some((e) => e.type === 'GroupRebalance') &&
            !!revoked &&
            !!assigned &&
            revoked.timeMs <= assigned.timeMs
          );
        },
        explanation:
          'With KIP-848 the coordinator bumps the group epoch, computes a new target assignment and reconciles each member on its own heartbeats: a partition is revoked by its owner before it is given to d3, and nobody stops for anyone else (no JoinGroup barrier).',
      },
      until: ({ snapshot }) => {
        const g = snapshot.clients.groups.find((x) => x.groupId === 'audit');
        return g?.state === 'Stable' && g.members.length === 3 && g.totalLag === 0;
      },
      waitMs: 90_000,
    },
  ],
};

// ---- 12 ---------------------------------------------------------------------------------------

const dynamicConfig: Lesson = {
  id: 'dynamic-config',
  number: 12,
  title: 'Dynamic configuration through the metadata log',
  summary:
    'A dynamic config change is a record in the @metadata log: the controller commits it and every broker applies it, with no restart.',
  concepts: [
    'dynamic configuration',
    'incrementalAlterConfigs',
    'static configuration',
    'ConfigRecord',
    '@metadata log',
  ],
  scenario: threeBrokers([onePartitionOn234('t', 1)]),
  steps: [
    bootStep(
      'Topic t runs with min.insync.replicas=1. Static settings (listeners, log.dirs) live in server.properties and need a restart; topic and many broker settings are dynamic.',
      't',
    ),
    {
      id: 'alter',
      title: 'Change a setting live',
      term: 'incrementalAlterConfigs',
      text: 'An operator sets min.insync.replicas=2 on t with kafka-configs (incrementalAlterConfigs).',
      task: {
        text: 'Set min.insync.replicas to 2 on topic t.',
        commands: [
          {
            type: 'alterConfig',
            resourceType: 'topic',
            resourceName: 't',
            configs: { 'min.insync.replicas': 2 },
          },
        ],
      },
      predict: {
        question: 'What does it take for the brokers to use the new value?',
        choices: [
          'A rolling restart of every broker',
          'Nothing more: the controller writes a ConfigRecord to the metadata log and each broker applies it',
          'Recreating the topic',
        ],
        answer: 1,
        answerHolds: (view) =>
          eventsSince(view, 'NodeRestarted').length === 0 &&
          view.snapshot.nodes.every((n) => n.state === 'running') &&
          view.snapshot.quorum.highWatermark > view.start.quorum.highWatermark,
        explanation:
          'In KRaft, metadata — configs included — is a replicated log. Brokers follow it and apply each change in memory within milliseconds.',
      },
      until: (view) =>
        view.snapshot.topics.find((t) => t.name === 't')?.config['min.insync.replicas'] === 2 &&
        eventsSince(view, 'ConfigChanged').length > 0 &&
        metadataCaughtUp(view.snapshot),
      waitMs: 10_000,
    },
  ],
};

// ---- 13 ---------------------------------------------------------------------------------------

const mirroredRecords = (view: { snapshot: { mirror?: { lag: { mirrored: number }[] } } }) =>
  (view.snapshot.mirror?.lag ?? []).reduce((a, l) => a + l.mirrored, 0);

const twoRegions: Lesson = {
  id: 'two-regions',
  number: 13,
  title: 'Two regions: mirroring is asynchronous',
  summary:
    'MirrorMaker 2 copies a topic to a standby cluster in another region after the primary acknowledged it: lose the primary region and the newest acknowledged records are missing in the standby.',
  concepts: ['MirrorMaker 2', 'standby cluster', 'asynchronous replication', 'failover', 'RPO'],
  scenario: presets['two-regions'].scenario,
  steps: [
    bootStep(
      'Two clusters, each with its own controllers: the primary in eu-west-1, a standby in eu-central-1, 60 ms away. producer-1 writes orders with acks=all to the primary.',
      'orders',
    ),
    {
      id: 'mirror',
      title: 'MirrorMaker copies, a moment later',
      term: 'MirrorMaker 2',
      text: 'Every 500 ms MirrorMaker reads what the primary committed and produces it to the same partition of orders in the standby. Open the Regions tab: the standby trails by a few records and a few hundred milliseconds.',
      until: (view) =>
        mirroredRecords(view) > 20 &&
        (view.snapshot.mirror?.lag ?? []).reduce((a, l) => a + l.lagRecords, 0) >= 3,
      waitMs: 30_000,
    },
    {
      id: 'lose-region',
      title: 'Lose the primary region',
      term: 'asynchronous replication',
      text: 'The whole of eu-west-1 goes dark: every primary node, and the link between the regions. Clients would now fail over to the standby.',
      task: {
        text: 'In the Regions tab, press Lose primary region.',
        commands: [{ type: 'loseRegion' }],
      },
      predict: {
        question:
          'producer-1 writes with acks=all. Does the standby hold every record the primary had acknowledged?',
        choices: [
          'Yes: acks=all waited for every copy',
          'No: the newest acknowledged records were not mirrored yet, and are missing in the standby',
          'No: the standby loses everything and must copy the topic again',
        ],
        answer: 1,
        answerHolds: (view) =>
          (view.snapshot.mirror?.failover?.missingCount ?? 0) > 0 && mirroredRecords(view) > 0,
        explanation:
          'acks=all counts the in-sync replicas of one cluster. MirrorMaker copies only what the primary already committed, so the standby always trails: the records of the last moments before the loss (the failover report lists them) are gone with the region. The recovery point objective (RPO) of asynchronous mirroring is not zero.',
      },
      until: (view) => !!view.snapshot.mirror?.regionLost && !!view.snapshot.mirror.failover,
      waitMs: 5_000,
    },
  ],
};

export const lessons: readonly Lesson[] = [
  partitionsAndKeys,
  replication,
  isr,
  acksAndMinIsr,
  brokerDies,
  quorum,
  unclean,
  racks,
  bootstrap,
  addBroker,
  consumers,
  dynamicConfig,
  twoRegions,
];

export function lessonById(id: string): Lesson | undefined {
  return lessons.find((l) => l.id === id);
}
