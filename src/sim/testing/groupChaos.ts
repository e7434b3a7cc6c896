// The story both consumer group protocols must come through: a keyed producer, three members of
// group "g", then a coordinator crash, a member crash and a member cut off from its coordinator for
// longer than its session, then recovery. The tests check what each protocol must guarantee.
import type { Driver } from './driver';
import { cluster } from './driver';

export function groupChaos(seed: number, start: (d: Driver, consumerId: string) => void): Driver {
  const d = cluster({
    seed,
    jitterMs: 3,
    config: { 'offsets.topic.num.partitions': 3 },
    topics: [{ name: 'orders', partitions: 6, replicationFactor: 3, config: { 'min.insync.replicas': 2 } }],
  }).settle();
  const coordinatorOf = () => d.sim.snapshot().clients.groups.find((g) => g.groupId === 'g')!.coordinator;
  d.do({
    type: 'startProducer',
    producerId: 'p',
    topic: 'orders',
    ratePerSec: 40,
    keyPattern: 'k{n}',
    keyCount: 24,
  });
  for (const id of ['c1', 'c2', 'c3']) start(d, id);
  d.advance(15000);
  const coordinator = coordinatorOf();
  d.crash(coordinator).advance(5000);
  d.do({ type: 'stopConsumer', consumerId: 'c2', graceful: false }).advance(30000).restart(coordinator);
  d.advance(10000).do({ type: 'cutLink', from: 'c3', to: coordinatorOf() }).advance(50000);
  d.do({ type: 'healNetwork' }).advance(10000);
  start(d, 'c2');
  d.advance(30000).do({ type: 'stopProducer', producerId: 'p' }).advance(90000);
  return d;
}
