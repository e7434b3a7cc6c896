// A client's connection states (ClusterConnectionStates in Kafka's NetworkClient): a broker whose
// connection failed is not tried again until its reconnect backoff has passed. The backoff is
// reconnect.backoff.ms doubling with each failed attempt in a row, up to reconnect.backoff.max.ms,
// with ±20% jitter (ExponentialBackoff, NetworkClient's RECONNECT_BACKOFF_JITTER); a connection
// that answers resets it (ClusterConnectionStates.ready). While a broker backs off, the Sender
// does not send to it (NetworkClient.ready is false) and its batches wait in the accumulator.
//
// Simplified: the simulator does not model the TCP connection itself. A request sent to a broker
// after its backoff stands for the connection attempt; a Disconnected answer (the process is down,
// or crashed with the request in flight) is the failed attempt, and any other answer is a
// connection that works.

import { nextFloat } from '../kernel/rng';
import type { ConnectionBackoff, World } from '../model/world';
import type { NodeId } from '../model/types';

/** Kafka's jitter on connection backoffs (NetworkClient, CommonClientConfigs.RECONNECT_BACKOFF_JITTER). */
const JITTER = 0.2;

/**
 * ExponentialBackoff.backoff(attempts) with multiplier 2: the exponent is capped where the term
 * reaches the maximum, the jittered term is truncated to whole milliseconds, then capped again.
 * Exported for the retry backoff too (retry.backoff.ms, KIP-580), which Kafka computes the same way.
 */
export function exponentialBackoffMs(w: World, initialMs: number, maxMs: number, attempts: number): number {
  const initial = Math.min(maxMs, initialMs);
  const expMax = maxMs > initial ? Math.log(maxMs / Math.max(initial, 1)) / Math.log(2) : 0;
  if (expMax === 0) return initial;
  const term = initial * 2 ** Math.min(attempts, expMax);
  const factor = 1 - JITTER + 2 * JITTER * nextFloat(w.rng);
  return Math.min(Math.floor(factor * term), maxMs);
}

/**
 * The longest exponentialBackoffMs(initialMs, maxMs, attempts) can be, jitter included: a caller
 * that is already past it need not draw the jitter (and so takes nothing from the seeded stream).
 */
export function exponentialBackoffBoundMs(initialMs: number, maxMs: number, attempts: number): number {
  return Math.min(maxMs, Math.ceil((1 + JITTER) * initialMs * 2 ** Math.min(attempts, 30)));
}

/**
 * A connection to `node` failed at this instant (ClusterConnectionStates.disconnected): it may be
 * tried again after the next backoff. The requests that were in flight on it fail together in Kafka,
 * so the Disconnected answers that come while it still backs off are the same failure, counted once.
 */
export function connectionFailed(
  w: World,
  connections: Map<NodeId, ConnectionBackoff>,
  node: NodeId,
  initialMs: number,
  maxMs: number,
): void {
  const c = connections.get(node);
  if (c && !c.connecting && c.untilMs > w.nowMs) return;
  const failures = c ? c.failures : 0;
  const backoffMs = exponentialBackoffMs(w, initialMs, maxMs, failures);
  connections.set(node, { failures: failures + 1, untilMs: w.nowMs + backoffMs, connecting: false });
}

/**
 * A request goes to `node` now. After a failure it is the new connection attempt
 * (ClusterConnectionStates.connecting): one at a time, until its answer or its failure.
 */
export function connectionTried(w: World, connections: Map<NodeId, ConnectionBackoff>, node: NodeId): void {
  const c = connections.size === 0 ? undefined : connections.get(node);
  if (c && c.untilMs <= w.nowMs) c.connecting = true;
}

/** `node` answered: its connection works, and the next failure backs off from the start again. */
export function connectionWorks(connections: Map<NodeId, ConnectionBackoff>, node: NodeId): void {
  if (connections.size !== 0) connections.delete(node);
}

/**
 * When a request may next be sent to `node` (0: now; its connection is not backing off; Infinity:
 * an attempt is in progress).
 */
export function connectableAtMs(connections: Map<NodeId, ConnectionBackoff>, node: NodeId): number {
  if (connections.size === 0) return 0;
  const c = connections.get(node);
  return !c ? 0 : c.connecting ? Infinity : c.untilMs;
}
