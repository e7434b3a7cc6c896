// Connections die with a process: when a node crashes or stops, every peer with a request in
// flight to it learns at once (a TCP reset), where the network can still carry the reset.
// A cut link carries nothing: those peers wait for their request timeouts instead.

import { send } from './kernel';
import type { SimNode, World } from '../model/world';

export function resetConnections(w: World, dead: SimNode): void {
  const reset = (to: number | string, reqId: number, requestKind: string) =>
    send(w, dead.id, to, { kind: 'Disconnected', requestKind }, reqId);
  for (const peer of w.nodes.values()) {
    const f = peer.state === 'running' ? peer.broker?.fetchers.get(dead.id) : undefined;
    if (f?.inFlight) reset(peer.id, f.reqId, 'Fetch');
    // KIP-890: a partition leader's verifications sent to the dead transaction coordinator.
    if (peer.state === 'running' && peer.broker?.txnVerifications)
      for (const [reqId, v] of peer.broker.txnVerifications)
        if (v.coordinator === dead.id) reset(peer.id, reqId, 'AddPartitionsToTxn');
  }
  for (const p of w.producers.values())
    for (const req of p.inFlight.values()) if (req.brokerId === dead.id) reset(p.id, req.reqId, 'Produce');
  for (const c of w.consumers.values()) {
    const f = c.fetches.get(dead.id);
    if (f && f.reqId !== 0) reset(c.id, f.reqId, 'ConsumerFetch');
    for (const r of c.pendingReq.values()) if (r.to === dead.id) reset(c.id, r.reqId, 'Group');
  }
}
