// A controller's decision is told when its record commits, whichever controller commits it: the
// unclean election written by a controller that stops at once is committed by the next quorum
// leader (Raft keeps the uncommitted entry it had replicated), and the event log says so.
import { describe, expect, it } from 'vitest';
import { presets } from '../../scenario';
import { Driver } from '../testing/driver';

describe('an unclean election whose controller stops before it commits', () => {
  it('is logged when the next controller commits it, before the loss it causes', () => {
    const d = new Driver(presets.default.scenario);
    d.sim.watchInvariants();
    d.advance(15000).shutdown(5).advance(100).restart(5);
    // Zone-b's brokers lose the controllers' majority; an orders partition is left with broker 5 outside its ISR.
    d.split([1, 3, 5], [2, 6, 8, 9, 7, 4]).advance(10799);
    d.do({ type: 'electLeaders', electionType: 'unclean' });
    // Controller 1 wrote the election and stops in the same instant; controller 3 takes over.
    d.shutdown(1).restart(1).advance(6605);

    // Whichever orders partition broker 5 holds outside its ISR (the placement follows the seed).
    const elected = d.expectEvent(
      'LeaderElected',
      (e) =>
        e.topic === 'orders' && /broker 5 is the new leader/.test(e.message) && /UNCLEAN/.test(e.message),
    );
    const lost = d.expectEvent(
      'AcknowledgedRecordsLost',
      (e) => e.topic === 'orders' && e.partition === elected.partition,
    );
    expect(elected.seq).toBeLessThan(lost.seq);
    // The loss is the unclean election's, which the invariants allow: nothing else broke.
    expect(d.sim.violations()).toEqual([]);
  });
});
