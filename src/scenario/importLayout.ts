// Import a real cluster's layout: the pasted output of `kafka-topics.sh --describe` (all topics),
// optionally `kafka-metadata-quorum.sh describe --status`, the brokers' racks and a reassignment
// plan, turned into a scenario (docs/import.md) with a line-by-line report of what was understood
// and what was not. Pure: text in, scenario and report out.
//
// The describe lines are TopicCommand's (apache/kafka tools/src/main/java/org/apache/kafka/tools/
// TopicCommand.java, TopicDescription.printDescription and PartitionDescription.printDescription):
//   Topic: orders	TopicId: …	PartitionCount: 3	ReplicationFactor: 3	Configs: min.insync.replicas=2
//   	Topic: orders	Partition: 0	Leader: 1	Replicas: 1,2,3	Isr: 1,2	Elr: 	LastKnownElr:
import { CONFIG_DEFS, checkConfig, checkTopicName, validateScenario } from '../sim';
import type { ConfigValue, Scenario, ScenarioNode, ScenarioTopic, ScriptStep } from '../sim/types';

/** How a line of the pasted text was taken. */
export type LineStatus = 'understood' | 'ignored' | 'problem';

export interface ReportLine {
  /** 1-based line number in the pasted text (0: about the whole input). */
  line: number;
  status: LineStatus;
  message: string;
}

export interface ImportSummary {
  brokers: number;
  controllers: number;
  racks: string[];
  topics: number;
  partitions: number;
  /** Partitions being reassigned (Adding/Removing Replicas, or a plan with a describe output). */
  reassigning: number;
}

export interface ImportResult {
  /** The scenario, or null when a problem keeps it from being built (the report says which). */
  scenario: Scenario | null;
  summary: ImportSummary;
  /** Each line that was ignored or was a problem, and one line per thing understood, in line order. */
  report: ReportLine[];
}

/** When the scripted reassignment starts: once the cluster has booted and created the topics. */
export const REASSIGN_AT_MS = 10_000;
/** The seed of an imported scenario (any fixed seed keeps the import deterministic). */
const IMPORT_SEED = 1;
/** Controllers added when no quorum status is pasted: KRaft's usual three. */
const DEFAULT_CONTROLLERS = 3;

const INTERNAL_TOPICS = new Set(['__consumer_offsets', '__transaction_state', '__share_group_state']);

// The keys TopicCommand prints (and older releases' `Offline:`), longest alternatives first.
const KEY_PATTERN =
  /(?:^|\s)(Adding Replicas|Removing Replicas|TopicId|PartitionCount|ReplicationFactor|Configs|Topic|Partition|Leader|Replicas|Isr|LastKnownElr|Elr|Offline):/g;

/** `Key: value` pairs of one describe line (tabs or spaces between them). */
function fieldsOf(line: string): Map<string, string> {
  const found: { key: string; start: number; end: number }[] = [];
  for (const m of line.matchAll(KEY_PATTERN)) {
    const key = m[1]!;
    const end = m.index + m[0].length;
    found.push({ key, start: end - key.length - 1, end });
  }
  const fields = new Map<string, string>();
  found.forEach((f, i) => {
    const next = found[i + 1];
    fields.set(f.key, line.slice(f.end, next ? next.start : undefined).trim());
  });
  return fields;
}

/** `1,2,3` (or empty, or N/A) as broker ids; null when not a list of ids. */
function idList(text: string | undefined): number[] | null {
  if (text === undefined) return null;
  const t = text.trim();
  if (t === '' || t === 'N/A') return [];
  const parts = t.split(',').map((s) => s.trim());
  if (!parts.every((s) => /^\d{1,10}$/.test(s))) return null;
  const ids = parts.map(Number);
  return ids.every((id) => id >= 0 && id <= 2147483647) ? ids : null;
}

interface TopicLine {
  line: number;
  name: string;
  partitionCount: number;
  replicationFactor: number;
  configs: Record<string, ConfigValue>;
}

interface PartitionLine {
  line: number;
  topic: string;
  partition: number;
  replicas: number[];
  adding: number[];
  removing: number[];
}

/** `Configs: a=1,b=x,y` as pairs: a comma followed by no `=` before the next comma continues a list value. */
function configPairs(text: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const piece of text.split(',')) {
    const eq = piece.indexOf('=');
    const last = pairs.at(-1);
    if (eq <= 0) {
      if (last && piece.trim() !== '') last[1] += `,${piece}`;
      continue;
    }
    pairs.push([piece.slice(0, eq).trim(), piece.slice(eq + 1).trim()]);
  }
  return pairs;
}

/** A topic config's value typed as the engine's definition wants it. */
function typedValue(name: string, text: string): ConfigValue {
  const def = CONFIG_DEFS[name];
  if (!def) return text;
  if (def.type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  if (def.type === 'string') return text;
  const n = Number(text);
  return text !== '' && Number.isFinite(n) ? n : text;
}

/** Balanced JSON starting at line `from`: the text and the index of its last line. */
function jsonBlock(lines: string[], from: number): { text: string; to: number } {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = from; i < lines.length; i++) {
    for (const ch of lines[i]!) {
      if (escaped) escaped = false;
      else if (inString) {
        if (ch === '\\') escaped = true;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === '{' || ch === '[') depth++;
      else if (ch === '}' || ch === ']') depth--;
    }
    if (depth <= 0) return { text: lines.slice(from, i + 1).join('\n'), to: i };
  }
  return { text: lines.slice(from).join('\n'), to: lines.length - 1 };
}

interface PlanPartition {
  topic: string;
  partition: number;
  replicas: number[];
}

/** A reassignment plan: `{"version":1,"partitions":[{"topic","partition","replicas","log_dirs"}]}`. */
function planPartitions(value: unknown): PlanPartition[] | string {
  if (
    typeof value !== 'object' ||
    value === null ||
    !Array.isArray((value as { partitions?: unknown }).partitions)
  )
    return 'not a reassignment plan: expected {"version":1,"partitions":[…]}';
  const out: PlanPartition[] = [];
  for (const [i, p] of (value as { partitions: unknown[] }).partitions.entries()) {
    const { topic, partition, replicas } = (p ?? {}) as Record<string, unknown>;
    if (
      typeof topic !== 'string' ||
      !Number.isSafeInteger(partition) ||
      (partition as number) < 0 ||
      !Array.isArray(replicas) ||
      !replicas.every((r) => Number.isSafeInteger(r) && (r as number) >= 0)
    )
      return `partitions[${i}]: expected {"topic": "…", "partition": 0, "replicas": [1, 2, 3]}`;
    out.push({ topic, partition: partition as number, replicas: replicas as number[] });
  }
  return out;
}

/** Builds a scenario from pasted tool output; see the file's header. */
export function importLayout(text: string): ImportResult {
  const report: ReportLine[] = [];
  const say = (line: number, status: LineStatus, message: string) => report.push({ line, status, message });
  const lines = text.split(/\r?\n/);

  const topicLines = new Map<string, TopicLine>();
  const partitionLines: PartitionLine[] = [];
  const partitionAt = new Map<string, number>();
  const racks = new Map<number, string | null>();
  let voters: number[] | null = null;
  let observers: number[] = [];
  let plan: { line: number; partitions: PlanPartition[] } | null = null;
  const internalSkipped = new Map<string, { line: number; partitions: number }>();
  const elrNoted = { count: 0, first: 0 };
  const stateNoted = { count: 0, first: 0 };
  const quorumNoted = { count: 0, first: 0 };

  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const n = i + 1;
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || /^\$ |^> /.test(line)) continue;

    if (line.startsWith('{')) {
      const block = jsonBlock(lines, i);
      i = block.to;
      let parsed: unknown;
      try {
        parsed = JSON.parse(block.text);
      } catch (error) {
        say(n, 'problem', `invalid JSON: ${(error as Error).message.replace(/\s+/g, ' ').slice(0, 120)}`);
        continue;
      }
      const partitions = planPartitions(parsed);
      if (typeof partitions === 'string') say(n, 'problem', partitions);
      else if (plan)
        say(n, 'ignored', `a second reassignment plan: only the first, at line ${plan.line}, is used`);
      else plan = { line: n, partitions };
      continue;
    }

    const fields = fieldsOf(line);
    if (fields.has('Topic') && fields.has('Partition') && fields.has('Leader')) {
      const topic = fields.get('Topic')!;
      const partitionText = fields.get('Partition')!;
      const replicas = idList(fields.get('Replicas'));
      if (INTERNAL_TOPICS.has(topic)) {
        const skipped = internalSkipped.get(topic);
        if (skipped) skipped.partitions++;
        else internalSkipped.set(topic, { line: n, partitions: 1 });
        continue;
      }
      if (!/^\d{1,6}$/.test(partitionText)) {
        say(n, 'problem', `Partition: expected a partition number, got "${partitionText.slice(0, 40)}"`);
        continue;
      }
      if (replicas === null || replicas.length === 0) {
        say(n, 'problem', 'Replicas: expected broker ids separated by commas, e.g. "Replicas: 1,2,3"');
        continue;
      }
      const adding = idList(fields.get('Adding Replicas')) ?? [];
      const removing = idList(fields.get('Removing Replicas')) ?? [];
      const partition = Number(partitionText);
      const key = `${topic}\u0000${partition}`;
      const earlier = partitionAt.get(key);
      if (earlier !== undefined) {
        say(n, 'problem', `partition ${topic}-${partition} again (first at line ${earlier})`);
        continue;
      }
      const dup = replicas.find((b, j) => replicas.indexOf(b) !== j);
      if (dup !== undefined) {
        say(n, 'problem', `Replicas: broker ${dup} more than once`);
        continue;
      }
      partitionAt.set(key, n);
      partitionLines.push({ line: n, topic, partition, replicas, adding, removing });
      const leader = fields.get('Leader');
      const isr = idList(fields.get('Isr')) ?? [];
      if (leader === 'none' || leader === '-1' || isr.length < replicas.length - adding.length) {
        if (stateNoted.count++ === 0) stateNoted.first = n;
      }
      const elr = idList(fields.get('Elr'));
      if (elr && elr.length > 0 && elrNoted.count++ === 0) elrNoted.first = n;
      continue;
    }
    if (fields.has('Topic') && fields.has('PartitionCount')) {
      const name = fields.get('Topic')!;
      const count = fields.get('PartitionCount')!;
      const rf = fields.get('ReplicationFactor') ?? '';
      if (INTERNAL_TOPICS.has(name)) {
        internalSkipped.set(name, internalSkipped.get(name) ?? { line: n, partitions: 0 });
        continue;
      }
      const nameError = checkTopicName(name);
      if (nameError) {
        say(n, 'problem', nameError);
        continue;
      }
      if (!/^\d{1,6}$/.test(count) || !/^\d{1,5}$/.test(rf)) {
        say(n, 'problem', 'PartitionCount and ReplicationFactor must be whole numbers');
        continue;
      }
      if (topicLines.has(name)) {
        say(n, 'problem', `topic ${name} again (first at line ${topicLines.get(name)!.line})`);
        continue;
      }
      const configs: Record<string, ConfigValue> = {};
      const ignored: string[] = [];
      for (const [k, v] of configPairs(fields.get('Configs') ?? '')) {
        const value = typedValue(k, v);
        if (checkConfig(k, value, 'topic') === null) configs[k] = value;
        else ignored.push(k);
      }
      topicLines.set(name, {
        line: n,
        name,
        partitionCount: Number(count),
        replicationFactor: Number(rf),
        configs,
      });
      if (ignored.length > 0)
        say(
          n,
          'ignored',
          `configs of ${name} the simulator does not model (or with a value it refuses): ${ignored.join(', ')}`,
        );
      continue;
    }
    if (line.startsWith('CurrentVoters:')) {
      const rest = line.slice('CurrentVoters:'.length);
      const ids = [...rest.matchAll(/"id":\s*(\d+)/g)].map((m) => Number(m[1]));
      voters = ids.length > 0 ? ids : (idList(rest.replace(/[[\]\s]/g, '')) ?? []);
      if (voters.length === 0) say(n, 'problem', 'CurrentVoters: no controller ids found');
      else say(n, 'understood', `controllers (the KRaft quorum's voters): ${voters.join(', ')}`);
      continue;
    }
    if (line.startsWith('CurrentObservers:')) {
      const rest = line.slice('CurrentObservers:'.length);
      const ids = [...rest.matchAll(/"id":\s*(\d+)/g)].map((m) => Number(m[1]));
      observers = ids.length > 0 ? ids : (idList(rest.replace(/[[\]\s]/g, '')) ?? []);
      continue;
    }
    if (/^(ClusterId|LeaderId|LeaderEpoch|HighWatermark|MaxFollowerLag|MaxFollowerLagTimeMs):/.test(line)) {
      if (quorumNoted.count++ === 0) quorumNoted.first = n;
      continue;
    }
    // kafka-broker-api-versions.sh: "host:9092 (id: 1 rack: zone-a) -> (" then the API lines.
    const api = /\(id:\s*(\d+)\s+rack:\s*([^)\s]+)\)/.exec(line);
    if (api) {
      racks.set(Number(api[1]), api[2] === 'null' ? null : api[2]!);
      continue;
    }
    if (/^\s*[A-Za-z]+\(\d+\):/.test(line) || line === ')') continue; // its API version lines
    // A racks list: "4 zone-a" (or "4=zone-a", "4: zone-a", "broker.id=4 broker.rack=zone-a").
    const rack =
      /^(\d{1,10})\s*[\s=:,]\s*([A-Za-z0-9._-]+)$/.exec(line) ??
      /^broker\.id\s*=\s*(\d{1,10})\s+broker\.rack\s*=\s*([A-Za-z0-9._-]+)$/.exec(line);
    if (rack) {
      racks.set(Number(rack[1]), rack[2]!);
      continue;
    }
    say(
      n,
      'ignored',
      `not a line of the describe, quorum, racks or plan formats: "${line.slice(0, 40)}${line.length > 40 ? '…' : ''}"`,
    );
  }

  for (const [name, skipped] of internalSkipped)
    say(
      skipped.line,
      'ignored',
      `${name} (an internal topic${skipped.partitions ? `, ${skipped.partitions} partition lines` : ''}): the simulated cluster creates its own when it is used`,
    );
  if (stateNoted.count > 0)
    say(
      stateNoted.first,
      'ignored',
      `${stateNoted.count} partition(s) had no leader or a short ISR then: the imported cluster starts healthy, each partition led by its first replica`,
    );
  if (quorumNoted.count > 0)
    say(
      quorumNoted.first,
      'ignored',
      `${quorumNoted.count} line(s) of quorum state at that moment (ClusterId, LeaderId, …): the simulation elects its own leader`,
    );
  if (elrNoted.count > 0)
    say(
      elrNoted.first,
      'ignored',
      `${elrNoted.count} partition(s) had an ELR then: the simulation keeps its own`,
    );

  // ---- the topics: from the describe, else from a plan alone ----
  const byTopic = new Map<string, PartitionLine[]>();
  for (const p of partitionLines) {
    const list = byTopic.get(p.topic) ?? [];
    list.push(p);
    byTopic.set(p.topic, list);
  }
  const reassign = new Map<string, { topic: string; partition: number; replicas: number[] }>();
  const planOnly = plan !== null && partitionLines.length === 0 && topicLines.size === 0;
  if (plan && planOnly) {
    for (const p of plan.partitions) {
      const list = byTopic.get(p.topic) ?? [];
      list.push({
        line: plan.line,
        topic: p.topic,
        partition: p.partition,
        replicas: p.replicas,
        adding: [],
        removing: [],
      });
      byTopic.set(p.topic, list);
    }
    say(
      plan.line,
      'understood',
      `a reassignment plan of ${plan.partitions.length} partition(s), taken as the layout`,
    );
  }
  for (const name of topicLines.keys()) if (!byTopic.has(name)) byTopic.set(name, []);

  const topics: ScenarioTopic[] = [];
  for (const [name, parts] of byTopic) {
    const head = topicLines.get(name);
    const where = head?.line ?? parts[0]?.line ?? 0;
    if (!head && !planOnly) {
      const nameError = checkTopicName(name);
      if (nameError) {
        say(where, 'problem', nameError);
        continue;
      }
    }
    parts.sort((a, b) => a.partition - b.partition);
    const count = head?.partitionCount ?? (parts.at(-1)?.partition ?? -1) + 1;
    const missing: number[] = [];
    const lists: number[][] = [];
    for (let p = 0, j = 0; p < count; p++) {
      const line = parts[j];
      if (line && line.partition === p) {
        // During a reassignment Replicas holds old and new: the layout now is Replicas less Adding.
        lists.push(line.replicas.filter((b) => !line.adding.includes(b)));
        if (line.adding.length > 0 || line.removing.length > 0)
          reassign.set(`${name}-${p}`, {
            topic: name,
            partition: p,
            replicas: line.replicas.filter((b) => !line.removing.includes(b)),
          });
        j++;
      } else missing.push(p);
    }
    const beyond = parts.filter((p) => p.partition >= count);
    for (const p of beyond)
      say(p.line, 'problem', `partition ${p.partition} of ${name}, which has PartitionCount: ${count}`);
    if (count === 0) {
      say(where, 'problem', `topic ${name}: no partitions`);
      continue;
    }
    if (missing.length > 0) {
      say(
        where,
        'problem',
        `topic ${name}: no line for partition${missing.length > 1 ? 's' : ''} ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ` and ${missing.length - 10} more` : ''} (PartitionCount: ${count}): paste the whole describe output`,
      );
      continue;
    }
    const rf = head?.replicationFactor ?? lists[0]!.length;
    const odd = parts.find((p) => p.replicas.filter((b) => !p.adding.includes(b)).length !== rf);
    if (odd) {
      say(
        odd.line,
        'problem',
        `${name}-${odd.partition} has ${odd.replicas.length - odd.adding.length} replicas, the topic's ReplicationFactor is ${rf}: the simulator needs one replication factor per topic`,
      );
      continue;
    }
    if (beyond.length > 0) continue;
    const topic: ScenarioTopic = { name, partitions: count, replicationFactor: rf, assignment: lists };
    if (head && Object.keys(head.configs).length > 0) topic.config = head.configs;
    topics.push(topic);
    say(
      where,
      'understood',
      `topic ${name}: ${count} partition(s), replication factor ${rf}${
        topic.config
          ? `, ${Object.entries(topic.config)
              .map(([k, v]) => `${k}=${String(v)}`)
              .join(', ')}`
          : ''
      }`,
    );
  }
  if (plan && !planOnly) {
    for (const p of plan.partitions) reassign.set(`${p.topic}-${p.partition}`, p);
    say(
      plan.line,
      'understood',
      `a reassignment plan of ${plan.partitions.length} partition(s), started at ${REASSIGN_AT_MS / 1000} s`,
    );
  }

  // ---- the nodes ----
  const brokerIds = new Set<number>();
  for (const t of topics) for (const list of t.assignment ?? []) for (const b of list) brokerIds.add(b);
  for (const r of reassign.values()) for (const b of r.replicas) brokerIds.add(b);
  for (const id of observers) brokerIds.add(id);
  for (const id of racks.keys()) if (!voters?.includes(id)) brokerIds.add(id);
  const controllerIds: number[] = [];
  if (voters) controllerIds.push(...voters);
  else if (brokerIds.size > 0) {
    const top = Math.max(...brokerIds);
    for (let k = 1; k <= DEFAULT_CONTROLLERS; k++) controllerIds.push(top + k);
  }
  const rackNames = [...new Set([...racks.values()].filter((r): r is string => r !== null))].sort();
  const nodes: ScenarioNode[] = [];
  const allIds = [...new Set([...controllerIds, ...brokerIds])].sort((a, b) => a - b);
  allIds.forEach((id) => {
    const roles: ScenarioNode['roles'] = [];
    if (brokerIds.has(id)) roles.push('broker');
    if (controllerIds.includes(id)) roles.push('controller');
    let rack = racks.get(id) ?? null;
    // Controllers the import adds are spread over the racks, one a rack, as a zone-aware deployment is.
    if (!voters && !brokerIds.has(id) && rackNames.length > 0)
      rack = rackNames[controllerIds.indexOf(id) % rackNames.length]!;
    nodes.push(rack ? { id, roles, rack } : { id, roles });
  });
  if (!voters && controllerIds.length > 0)
    say(
      0,
      'understood',
      `no quorum status pasted: ${DEFAULT_CONTROLLERS} controllers added, ids ${controllerIds.join(', ')}${rackNames.length ? ', one in each rack in turn' : ''}`,
    );
  if (racks.size > 0) {
    const unracked = [...brokerIds].filter((id) => !racks.get(id));
    say(
      0,
      'understood',
      `racks: ${rackNames.join(', ') || 'none'}${unracked.length ? `; brokers without a rack: ${unracked.slice(0, 20).join(', ')}` : ''}`,
    );
  }
  if (brokerIds.size > 0) say(0, 'understood', `brokers: ${[...brokerIds].sort((a, b) => a - b).join(', ')}`);

  const summary: ImportSummary = {
    brokers: brokerIds.size,
    controllers: controllerIds.length,
    racks: rackNames,
    topics: topics.length,
    partitions: topics.reduce((sum, t) => sum + t.partitions, 0),
    reassigning: reassign.size,
  };
  report.sort((a, b) => a.line - b.line);
  if (topics.length === 0 && !report.some((r) => r.status === 'problem'))
    say(0, 'problem', 'no topic found: paste the output of kafka-topics.sh --describe (all topics)');
  if (report.some((r) => r.status === 'problem')) return { scenario: null, summary, report };

  const scenario: Scenario = { version: 1, seed: IMPORT_SEED, nodes, topics };
  if (reassign.size > 0) {
    const step: ScriptStep = {
      atMs: REASSIGN_AT_MS,
      command: { type: 'reassignPartitions', partitions: [...reassign.values()] },
    };
    scenario.script = [step];
  }
  // The engine's own checks (limits, node ids, a replica on a broker that is a controller only …).
  const issues = validateScenario(scenario);
  if (issues.length > 0) {
    for (const issue of issues.slice(0, 50)) say(0, 'problem', `${issue.path}: ${issue.message}`);
    if (issues.length > 50) say(0, 'problem', `and ${issues.length - 50} more problems`);
    return { scenario: null, summary, report };
  }
  return { scenario, summary, report };
}
