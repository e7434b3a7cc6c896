// Pure view models for the cluster canvas: a deterministic layout of zones, nodes and clients, the
// look of every replica, and the edges between clients, leaders and cut links. No React here:
// the canvas only draws what these functions return. One mechanism a file:
//   types.ts              the shapes of the cards and edges the canvas draws
//   keys.ts               the keys of the canvas's boxes
//   layout.ts             where every card sits
//   replicas.ts           each broker's replicas, their roles and chips
//   fencing.ts            why a running broker is fenced
//   nodeCards.ts          the card of each node
//   zones.ts              the zones (racks) the nodes sit in
//   clients.ts            producer and consumer group cards, and their edges
//   standby.ts            the standby region's card
//   cuts.ts               cut links: each node's cut state and the cut edges
//   model.ts              the whole canvas for one snapshot
//   messages.ts           animated messages from snapshot diffs
//   liveAnnouncements.ts  what the live region reads out
export * from './types';
export { clientKey, groupKey, NO_RACK, nodeKey, producerKey, standbyKey, zoneKey } from './keys';
export { cardSizes, CHIPS_PER_ROW, layoutCluster, MAX_CHIPS, type Layout, type Sizes } from './layout';
export { COLLAPSE_ABOVE_BROKERS, replicaRole } from './replicas';
export { fencedReason } from './fencing';
export { cutEdges, cutStates } from './cuts';
export { selectCanvasModel, type CanvasModel } from './model';
export { inferMessages, messageBudget, type CanvasMessage, type MessageKind } from './messages';
export { ANNOUNCED_EVENTS, announcementFor } from './liveAnnouncements';
