// The active controller's writes to the metadata log: records appended as the quorum leader, and
// the replies and events that wait until the quorum commits them.

import { emit, reply } from '../kernel/kernel';
import { entryAt, logEndOffset } from '../model/log';
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
  else {
    const epoch = entryAt(node.disk.metaLog, offset)?.epoch ?? node.disk.quorumEpoch;
    w.controllerEvents.push({ epoch, offset, type, message, fields });
  }
}

/**
 * Logs the waiting events whose records this controller now knows to be committed. Raft commits
 * the same prefix everywhere, so the first controller to learn of a commit decides: its entry at
 * the offset has the event's epoch (the record committed: tell it) or another (it was truncated
 * away before committing: drop it).
 */
export function emitCommittedEvents(w: World, node: SimNode): void {
  if (w.controllerEvents.length === 0) return;
  const hw = node.raft!.highWatermark;
  const waiting: typeof w.controllerEvents = [];
  for (const e of w.controllerEvents) {
    if (e.offset >= hw) waiting.push(e);
    else if (entryAt(node.disk.metaLog, e.offset)?.epoch === e.epoch) emit(w, e.type, e.message, e.fields);
  }
  w.controllerEvents = waiting;
}

/** Kafka answers a controller request once its records are committed. */
export function replyAfterCommit(w: World, node: SimNode, offset: number, req: Message, body: Body): void {
  if (offset < node.raft!.highWatermark) reply(w, req, body);
  else node.controller!.pendingReplies.push({ offset, req, body });
}
