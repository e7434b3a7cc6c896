// The countdowns a teacher points at, as view models: for each timer that decides what happens
// next, how far it has run against its Kafka limit, where it is drawn and what it says. The
// snapshot carries when each clock started (a last heartbeat, a last caught-up time, a request's
// send time), which changes rarely; the countdown itself is computed here from snapshot.timeMs.
import type { Snapshot, TimeoutsView } from '../sim/types';
import { nodeKey, producerKey } from './canvas';
import type { Selection } from './selection';

export type TimerKind = 'heartbeat' | 'replicaLag' | 'quorumFetch' | 'request' | 'delivery';

export interface Countdown {
  /** Unique on its card: the kind, and the partition for a replica's lag. */
  key: string;
  kind: TimerKind;
  /** What the clock is of, in a few words ("last heartbeat", "orders-0 lag"). */
  subject: string;
  elapsedMs: number;
  limitMs: number;
  /** Kafka's name of the limit. */
  config: string;
  /** elapsedMs / limitMs, at most 1. */
  fraction: number;
  expired: boolean;
  /** "4.2 s / 9 s" */
  text: string;
  /** What the limit does, in Kafka's words; with "now" or "next" once it has run out. */
  outcome: string;
  /** For screen readers: "last heartbeat 4.2 s ago of broker.session.timeout.ms 9 s; then fenced". */
  label: string;
}

export interface CardTimers {
  /** The countdowns to draw, the most urgent first. */
  shown: Countdown[];
  /** Further running countdowns on the card, not drawn (counted). */
  more: number;
}

/** Kafka's defaults, for a snapshot that carries no timeouts (a session saved before they were added). */
export const DEFAULT_TIMEOUTS: TimeoutsView = {
  brokerSessionTimeoutMs: 9000,
  brokerHeartbeatIntervalMs: 2000,
  replicaLagTimeMaxMs: 30000,
  controllerQuorumFetchTimeoutMs: 2000,
};

/** A countdown is drawn once it has run this share of its limit (a broker's heartbeat: once one is late). */
export const SHOW_FRACTION = 0.1;
/** A heartbeat counts as late once this many heartbeat intervals have passed without one. */
export const LATE_HEARTBEAT_INTERVALS = 1.25;
/** How long a broker's run-out heartbeat clock stays drawn, so the moment of fencing can be seen. */
export const EXPIRED_LINGER_MS = 4000;
/** At most this many countdowns on one card; the rest are counted. */
export const MAX_PER_CARD = 2;

const NONE: CardTimers = { shown: [], more: 0 };

/** Seconds for a running clock: one decimal below a minute ("4.2 s", "8.0 s"), whole seconds above. */
export function seconds(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  return s >= 60 ? `${Math.round(s)} s` : `${s.toFixed(1)} s`;
}

/** Seconds for a limit: as few digits as it needs ("9 s", "0.5 s"). */
export function limitSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

function countdown(
  kind: TimerKind,
  key: string,
  subject: string,
  elapsedMs: number,
  limitMs: number,
  config: string,
  outcome: string,
): Countdown {
  const elapsed = Math.max(0, elapsedMs);
  const expired = elapsed > limitMs;
  return {
    key,
    kind,
    subject,
    elapsedMs: elapsed,
    limitMs,
    config,
    fraction: limitMs > 0 ? Math.min(1, elapsed / limitMs) : 1,
    expired,
    text: `${seconds(elapsed)} / ${limitSeconds(limitMs)}`,
    outcome,
    label: `${subject} ${seconds(elapsed)} ago of ${config} ${limitSeconds(limitMs)}; ${outcome}`,
  };
}

const num = (value: unknown, fallback: number): number => (typeof value === 'number' ? value : fallback);

/**
 * Every countdown worth drawing, by card key (nodeKey / producerKey). A clock is drawn once it has
 * run SHOW_FRACTION of its limit, so a healthy cluster shows none; a broker's heartbeat once a
 * heartbeat is late, or always while the broker is selected (the clock resets on every heartbeat).
 */
export function selectTimers(snapshot: Snapshot, selected: Selection | null): Map<string, CardTimers> {
  const t = snapshot.timeouts ?? DEFAULT_TIMEOUTS;
  const now = snapshot.timeMs;
  const byCard = new Map<string, Countdown[]>();
  const add = (card: string, c: Countdown) => {
    let list = byCard.get(card);
    if (!list) byCard.set(card, (list = []));
    list.push(c);
  };
  const selectedNode =
    selected && (selected.kind === 'broker' || selected.kind === 'controller') ? Number(selected.id) : null;

  for (const n of snapshot.nodes) {
    if (n.lastHeartbeatMs === null || n.state === 'stopped') continue;
    const age = now - n.lastHeartbeatMs;
    const late = age > LATE_HEARTBEAT_INTERVALS * t.brokerHeartbeatIntervalMs;
    const expired = age > t.brokerSessionTimeoutMs;
    // Until it has run out, only an unfenced broker's clock matters; once out, it lingers a moment.
    const show = expired
      ? age <= t.brokerSessionTimeoutMs + EXPIRED_LINGER_MS
      : !n.fenced && (late || (selectedNode === n.id && n.state === 'running'));
    if (!show) continue;
    add(
      nodeKey(n.id),
      countdown(
        'heartbeat',
        'heartbeat',
        'last heartbeat',
        age,
        t.brokerSessionTimeoutMs,
        'broker.session.timeout.ms',
        !expired
          ? 'then the active controller fences the broker'
          : n.fenced
            ? 'the active controller fenced the broker'
            : 'the active controller is fencing the broker',
      ),
    );
  }

  for (const v of snapshot.quorum.voters) {
    if (v.state !== 'follower' || v.lastFetchOkMs === null) continue;
    const age = now - v.lastFetchOkMs;
    if (age < SHOW_FRACTION * t.controllerQuorumFetchTimeoutMs) continue;
    add(
      nodeKey(v.id),
      countdown(
        'quorumFetch',
        'quorumFetch',
        `last fetch from leader ${v.leaderId ?? '?'}`,
        age,
        t.controllerQuorumFetchTimeoutMs,
        'controller.quorum.fetch.timeout.ms',
        age > t.controllerQuorumFetchTimeoutMs
          ? 'it is giving up on its leader (prospective, pre-vote)'
          : 'then it becomes prospective and asks for pre-votes',
      ),
    );
  }

  const lagMs = t.replicaLagTimeMaxMs;
  for (const p of snapshot.partitions) {
    if (p.leader < 0) continue;
    for (const log of p.replicaLogs) {
      if (log.lastCaughtUpAtMs === undefined) continue;
      const age = now - log.lastCaughtUpAtMs;
      if (age < SHOW_FRACTION * lagMs) continue;
      const name = `${p.topic}-${p.partition}`;
      add(
        nodeKey(log.brokerId),
        countdown(
          'replicaLag',
          `lag:${name}`,
          `${name} last caught up`,
          age,
          lagMs,
          'replica.lag.time.max.ms',
          age > lagMs
            ? `leader ${p.leader} removes it from the ISR at its next check (every ${limitSeconds(lagMs / 2)})`
            : `then leader ${p.leader} removes it from the ISR`,
        ),
      );
    }
  }

  for (const producer of snapshot.clients.producers) {
    const requestMs = num(producer.config['request.timeout.ms'], 30000);
    const deliveryMs = num(producer.config['delivery.timeout.ms'], 120000);
    if (producer.oldestRequestSentAtMs !== null && producer.oldestRequestSentAtMs !== undefined) {
      const age = now - producer.oldestRequestSentAtMs;
      if (age >= SHOW_FRACTION * requestMs)
        add(
          producerKey(producer.id),
          countdown(
            'request',
            'request',
            `oldest request to broker ${producer.oldestRequestBrokerId ?? '?'} sent`,
            age,
            requestMs,
            'request.timeout.ms',
            age > requestMs
              ? 'it failed with REQUEST_TIMED_OUT'
              : 'then it fails with REQUEST_TIMED_OUT and is retried',
          ),
        );
    }
    if (producer.oldestRecordSentAtMs !== null && producer.oldestRecordSentAtMs !== undefined) {
      const age = now - producer.oldestRecordSentAtMs;
      if (age >= SHOW_FRACTION * deliveryMs)
        add(
          producerKey(producer.id),
          countdown(
            'delivery',
            'delivery',
            'oldest unacknowledged record sent',
            age,
            deliveryMs,
            'delivery.timeout.ms',
            age > deliveryMs ? 'it failed (TimeoutException)' : 'then it fails (TimeoutException)',
          ),
        );
    }
  }

  const out = new Map<string, CardTimers>();
  for (const [card, list] of byCard) {
    // A broker's own heartbeat first, then the most urgent.
    list.sort(
      (a, b) =>
        Number(b.kind === 'heartbeat') - Number(a.kind === 'heartbeat') ||
        b.fraction - a.fraction ||
        (a.key < b.key ? -1 : 1),
    );
    // A broker whose heartbeat is late is about to be fenced, which takes it out of every ISR
    // before replica.lag.time.max.ms could: its replicas' lag clocks are left out.
    const shown =
      list[0]?.kind === 'heartbeat' && t.brokerSessionTimeoutMs <= lagMs
        ? list.filter((c) => c.kind !== 'replicaLag')
        : list;
    out.set(card, { shown: shown.slice(0, MAX_PER_CARD), more: Math.max(0, shown.length - MAX_PER_CARD) });
  }
  return out;
}

/** The countdowns of one card (nothing when none runs). */
export function cardTimers(timers: Map<string, CardTimers>, card: string): CardTimers {
  return timers.get(card) ?? NONE;
}

/** One line per card for equality checks: what the card would draw, at display precision. */
export function timersSignature(t: CardTimers): string {
  return t.shown.map((c) => `${c.key}:${c.text}:${c.outcome}`).join('|') + `|+${t.more}`;
}
