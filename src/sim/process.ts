// A node's process: it stops (a crash, or the end of a controlled shutdown) and it restarts. At a
// stop each subsystem forgets its own memory through the one `crash` it exports, and the disk (the
// logs, the quorum state, the metadata log) stays; a restart boots the node from its disk
// (world.ts bootNode). A new incarnation makes every timer and reply meant for the old process miss.

import { crashBroker } from './broker/broker';
import { resetConnections } from './kernel/connections';
import { crashGroupCoordinator } from './groups/groupCoordinator';
import { crashTransactionCoordinator } from './txn/transactionStateManager';
import { crashRaft } from './kraft/quorum';
import { crashController } from './kraft/quorumController';
import type { SimNode, World } from './model/world';
import { bootNode } from './world';

/** The process goes away: memory is lost, the disk stays. */
export function stopProcess(w: World, node: SimNode, state: 'crashed' | 'stopped'): void {
  resetConnections(w, node);
  node.state = state;
  node.incarnation++;
  crashRaft(node);
  crashController(node);
  crashBroker(node);
  crashGroupCoordinator(w, node);
  crashTransactionCoordinator(w, node);
}

/** The process starts again as a new incarnation and reads its disk. */
export function restartProcess(w: World, node: SimNode): void {
  node.incarnation++;
  bootNode(w, node);
}
