// The 200-broker layout as a real cluster's tools print it, shared by e2e/large-cluster.spec.ts and
// the UI benchmark (scripts/bench-ui.ts, --only huge): 200 brokers in 4 racks and 20,000 partitions,
// in `kafka-topics.sh --describe`'s format (TopicCommand's describe output), then the racks. Plain
// TypeScript, no Playwright, so that Node scripts can import it too.

export const RACKS = ['zone-a', 'zone-b', 'zone-c', 'zone-d'];
export const PER_RACK = 50;

/** 100 topics of 200 partitions, RF 3, each replica in another rack; then the racks (`id rack`). */
export function describeOutput(): string {
  const lines: string[] = [];
  for (let t = 0; t < 100; t++) {
    const name = `topic-${String(t).padStart(3, '0')}`;
    lines.push(
      `Topic: ${name}\tTopicId: ${name.padEnd(22, 'A')}\tPartitionCount: 200\tReplicationFactor: 3\tConfigs: min.insync.replicas=2`,
    );
    for (let p = 0; p < 200; p++) {
      const first = (t + p) % RACKS.length;
      const b = (t * 7 + p) % PER_RACK;
      const replicas = [0, 1, 2].map(
        (i) => ((first + i) % RACKS.length) * PER_RACK + 1 + ((b + i) % PER_RACK),
      );
      const list = replicas.join(',');
      lines.push(
        `\tTopic: ${name}\tPartition: ${p}\tLeader: ${replicas[0]}\tReplicas: ${list}\tIsr: ${list}\tElr: \tLastKnownElr: `,
      );
    }
  }
  lines.push('');
  RACKS.forEach((rack, r) => {
    for (let b = 1; b <= PER_RACK; b++) lines.push(`${r * PER_RACK + b} ${rack}`);
  });
  return lines.join('\n');
}

/** What the Import layout dialog says once it has read describeOutput(). */
export const READY_TEXT =
  'Ready: 200 brokers, 3 controllers, racks zone-a, zone-b, zone-c, zone-d, 100 topics, 20,000 partitions.';
