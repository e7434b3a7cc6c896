// What the canvas's live region reads out to screen-reader users as events happen.

/** Event types read out to screen-reader users as they happen. */
export const ANNOUNCED_EVENTS = new Set([
  'LeaderElected',
  'BrokerFenced',
  'BrokerUnfenced',
  'ControllerElected',
  'ProduceFailed',
  'CommandRefused',
  'PartitionOffline',
]);

/** What to read out for a batch of events: the first few messages in full, then how many more. */
export function announcementFor(events: { type: string; message: string }[], limit = 3): string | null {
  const picked = events.filter((e) => ANNOUNCED_EVENTS.has(e.type));
  if (picked.length === 0) return null;
  const text = picked
    .slice(0, limit)
    // The engine's messages already name the Kafka term (e.g. "... (BrokerFenced)").
    .map((e) => e.message)
    .join(' ');
  return picked.length > limit ? `${text} And ${picked.length - limit} more.` : text;
}
