// The active controller's writes to the metadata log: records appended as the quorum leader, and
// the replies and events that wait until the quorum commits them.

import { emit, reply } from '../kernel/kernel';
import { logEndOffset } from '../model/log';
import type { Body, Message } from '../model/messages';
import type { MetaRecord } from '../model/metadata';
import { applyRecord } from '../model/metadata';
import { appendAsLeader } from './raftLog';
import type { SimNode, World } from '../model/world';

export function write(w: World, node: SimNode, records: MetaRecord[]): number {
  const c = node.controller!;
  let offset = logEndOffset(node.disk.metaLog);
  for (const rec of records) applyRecord(c.work!, offset++, rec);
  return appendAsLeader(w, node, records);
}

/** An event explained now, logged once the record at `offset` commits (at once if it already has). */
export function later(
  w: World,
  node: SimNode,
  offset: number,
  type: string,
  message: string,
  fields: Record<string, unknown> = {},
): void {
  if (offset < node.raft!.highWatermark) emit(w, type, message, fields);
  else node.controller!.pendingEvents.push({ offset, type, message, fields });
}

/** Kafka answers a controller request once its records are committed. */
export function replyAfterCommit(w: World, node: SimNode, offset: number, req: Message, body: Body): void {
  if (offset < node.raft!.highWatermark) reply(w, req, body);
  else node.controller!.pendingReplies.push({ offset, req, body });
}
