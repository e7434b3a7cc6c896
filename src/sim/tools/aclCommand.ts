// AclCommand (apache/kafka core/src/main/scala/kafka/admin/AclCommand.scala): kafka-acls.sh --add,
// --remove and --list, each binding added or removed through the addAcl / removeAcl commands the
// page's security form sends. The simulator's authorizer (broker/acl.ts) knows topics and groups,
// the operations Read, Write, Describe and All, and every host ('*'); a line asking for more is
// refused with a `Note (simulator):` line rather than a Kafka message.

import type { AclBinding, AclOperation } from '../model/types';
import { reachable } from './cluster';
import { OptionError, parseOptions, type OptionSpec, type ParsedOptions } from './options';
import { kafkaMessage, Printer, type Tool, type ToolContext } from './tool';
import { usage } from './usage';

const OPTIONS: OptionSpec[] = [
  {
    name: 'bootstrap-server',
    arg: 'String: server to connect to',
    description:
      'A list of host/port pairs to use for establishing the connection to the Kafka cluster. This list should be in the form host1:port1,host2:port2,... This config is required for acl management using admin client API.',
  },
  {
    name: 'bootstrap-controller',
    arg: 'String: controller to connect to',
    description:
      'A list of host/port pairs to use for establishing the connection to the Kafka cluster. This list should be in the form host1:port1,host2:port2,... This config is required for acl management using admin client API.',
  },
  {
    name: 'command-config',
    arg: 'String: command-config',
    description: 'A property file containing configs to be passed to Admin Client.',
  },
  {
    name: 'topic',
    arg: 'String: topic',
    repeated: true,
    description:
      "topic to which ACLs should be added or removed. A value of '*' indicates ACL should apply to all topics.",
  },
  { name: 'cluster', description: 'Add/Remove cluster ACLs.' },
  {
    name: 'group',
    arg: 'String: group',
    repeated: true,
    description:
      "Consumer Group to which the ACLs should be added or removed. A value of '*' indicates the ACLs should apply to all groups.",
  },
  {
    name: 'transactional-id',
    arg: 'String: transactional-id',
    repeated: true,
    description:
      "The transactionalId to which ACLs should be added or removed. A value of '*' indicates the ACLs should apply to all transactionalIds.",
  },
  {
    name: 'idempotent',
    description:
      'Enable idempotence for the producer. This should be used in combination with the --producer option. Note that idempotence is enabled automatically if the producer is authorized to a particular transactional-id.',
  },
  {
    name: 'delegation-token',
    arg: 'String: delegation-token',
    repeated: true,
    description:
      "Delegation token to which ACLs should be added or removed. A value of '*' indicates ACL should apply to all tokens.",
  },
  {
    name: 'resource-pattern-type',
    arg: 'ANY|MATCH|LITERAL|PREFIXED',
    description:
      "The type of the resource pattern or pattern filter. When adding acls, this should be a specific pattern type, e.g. 'literal' or 'prefixed'. When listing or removing acls, a specific pattern type can be used to list or remove acls from specific resource patterns, or use the filter values of 'any' or 'match', where 'any' will match any pattern type, but will match the resource name exactly, where as 'match' will perform pattern matching to list or remove all acls that affect the supplied resource(s). WARNING: 'match', when used in combination with the '--remove' switch, should be used with care. (default: LITERAL)",
  },
  { name: 'add', description: 'Indicates you are trying to add ACLs.' },
  { name: 'remove', description: 'Indicates you are trying to remove ACLs.' },
  {
    name: 'list',
    description:
      'List ACLs for the specified resource, use --topic <topic> or --group <group> or --cluster to specify a resource.',
  },
  {
    name: 'operation',
    arg: 'String',
    repeated: true,
    description:
      'Operation that is being allowed or denied. Valid operation names are: Describe, DescribeConfigs, Alter, IdempotentWrite, Read, Delete, Create, ClusterAction, All, CreateTokens, DescribeTokens, Write, AlterConfigs (default: All)',
  },
  {
    name: 'allow-principal',
    arg: 'String: allow-principal',
    repeated: true,
    description:
      "principal is in principalType:name format. Note that principalType must be supported by the Authorizer being used. For example, User:'*' is the wild card indicating all users.",
  },
  {
    name: 'deny-principal',
    arg: 'String: deny-principal',
    repeated: true,
    description:
      "principal is in principalType:name format. By default anyone not added through --allow-principal is denied access. You only need to use this option as negation to already allowed set. Note that principalType must be supported by the Authorizer being used. For example if you wanted to allow access to all users in the system but not test-user you can define an ACL that allows access to User:'*' and specify --deny-principal=User:test@EXAMPLE.COM. AND PLEASE REMEMBER DENY RULES TAKES PRECEDENCE OVER ALLOW RULES.",
  },
  {
    name: 'principal',
    arg: 'String: principal',
    repeated: true,
    description:
      'List ACLs for the specified principal. principal is in principalType:name format. Note that principalType must be supported by the Authorizer being used. Multiple --principal option can be passed.',
  },
  {
    name: 'allow-host',
    arg: 'String: allow-host',
    repeated: true,
    description:
      "Host from which principals listed in --allow-principal will have access. If you have specified --allow-principal then the default for this option will be set to '*' which allows access from all hosts.",
  },
  {
    name: 'deny-host',
    arg: 'String: deny-host',
    repeated: true,
    description:
      "Host from which principals listed in --deny-principal will be denied access. If you have specified --deny-principal then the default for this option will be set to '*' which denies access from all hosts.",
  },
  {
    name: 'producer',
    description:
      'Convenience option to add/remove ACLs for producer role. This will generate ACLs that allows WRITE,DESCRIBE and CREATE on topic.',
  },
  {
    name: 'consumer',
    description:
      'Convenience option to add/remove ACLs for consumer role. This will generate ACLs that allows READ,DESCRIBE on topic and READ on group.',
  },
  { name: 'force', description: 'Assume Yes to all queries and do not prompt.' },
  {
    name: 'user-principal',
    arg: 'String: user-principal',
    repeated: true,
    description:
      'Specifies a user principal as a resource in relation with the operation. For instance one could grant CreateTokens or DescribeTokens permission on a given user principal.',
  },
  { name: 'help', description: 'Print usage information.' },
  { name: 'version', description: 'Display Kafka version.' },
];

/** AclOperation's names (AclEntry.ACL_OPERATIONS), upper snake case as the enum prints. */
const OPERATIONS = [
  'READ',
  'WRITE',
  'CREATE',
  'DELETE',
  'ALTER',
  'DESCRIBE',
  'CLUSTER_ACTION',
  'DESCRIBE_CONFIGS',
  'ALTER_CONFIGS',
  'IDEMPOTENT_WRITE',
  'CREATE_TOKENS',
  'DESCRIBE_TOKENS',
  'ALL',
] as const;
type KafkaOperation = (typeof OPERATIONS)[number] | 'UNKNOWN';
type ResourceType = 'TOPIC' | 'GROUP' | 'CLUSTER' | 'TRANSACTIONAL_ID' | 'DELEGATION_TOKEN' | 'USER';
type PatternType = 'LITERAL' | 'PREFIXED' | 'ANY' | 'MATCH';

// AclEntry.supportedOperations (ALL is added by validateOperation).
const SUPPORTED: Record<ResourceType, readonly KafkaOperation[]> = {
  TOPIC: ['READ', 'WRITE', 'CREATE', 'DESCRIBE', 'DELETE', 'ALTER', 'DESCRIBE_CONFIGS', 'ALTER_CONFIGS'],
  GROUP: ['READ', 'DESCRIBE', 'DELETE', 'DESCRIBE_CONFIGS', 'ALTER_CONFIGS'],
  CLUSTER: [
    'CREATE',
    'CLUSTER_ACTION',
    'DESCRIBE_CONFIGS',
    'ALTER_CONFIGS',
    'IDEMPOTENT_WRITE',
    'ALTER',
    'DESCRIBE',
  ],
  TRANSACTIONAL_ID: ['DESCRIBE', 'WRITE'],
  DELEGATION_TOKEN: ['DESCRIBE'],
  USER: ['CREATE_TOKENS', 'DESCRIBE_TOKENS'],
};

/** The operations and resource types the simulator's authorizer enforces. */
const ENGINE_OPERATIONS: Partial<Record<KafkaOperation, AclOperation>> = {
  READ: 'Read',
  WRITE: 'Write',
  DESCRIBE: 'Describe',
  ALL: 'All',
};
const toKafkaOperation = (op: AclOperation): KafkaOperation => op.toUpperCase() as KafkaOperation;

/** SecurityUtils.operationName: Pascal case (DESCRIBE_CONFIGS → DescribeConfigs). */
const pascal = (name: string) =>
  name
    .split('_')
    .map((w) => w.charAt(0) + w.slice(1).toLowerCase())
    .join('');

/** SecurityUtils.operation: the Pascal name, or the same upper-cased (no underscores), else UNKNOWN. */
function parseOperation(text: string): KafkaOperation {
  return (
    OPERATIONS.find((op) => pascal(op) === text || pascal(op).toUpperCase() === text.toUpperCase()) ??
    'UNKNOWN'
  );
}

interface Pattern {
  resourceType: ResourceType;
  name: string;
  patternType: PatternType;
}
interface Entry {
  principal: string;
  host: string;
  operation: KafkaOperation;
  permission: 'ALLOW' | 'DENY';
}

// ResourcePattern.toString / ResourcePatternFilter.toString; AccessControlEntryData.toString.
const patternText = (p: Pattern) =>
  `ResourcePattern(resourceType=${p.resourceType}, name=${p.name}, patternType=${p.patternType})`;
const entryText = (e: Entry) =>
  `(principal=${e.principal}, host=${e.host}, operation=${e.operation}, permissionType=${e.permission})`;
/** `… $Newline ${acls.map("\t" + _).mkString(Newline)} $Newline`, then println. */
const entriesBlock = (entries: readonly Entry[]) =>
  ` \n ${entries.map((e) => `\t${entryText(e)}`).join('\n')} \n`;

/** printUsageAndExit: the message, then the usage. */
class UsageError extends Error {}
/** main's catch: `Error while executing ACL command: ` and the message (its stack trace left out). */
class CommandError extends Error {}
/** What the simulator does not model: said as the simulator's note, not as Kafka's words. */
class SimulatorNote extends Error {}

export const aclCommand: Tool = {
  name: 'kafka-acls.sh',
  purpose: 'This tool helps to manage acls on kafka.',
  options: OPTIONS,
  run(args, ctx) {
    const out = new Printer();
    try {
      const opts = parseOptions(args, OPTIONS);
      if (opts.has('help') || args.length === 0) {
        out.println(usage(aclCommand));
        return out.result(opts.has('help') ? 0 : 1);
      }
      checkArgs(opts);
      if (!reachable(ctx.w))
        throw new CommandError('Timed out waiting for a node assignment. Call: describeAcls');
      if (opts.has('add')) addAcls(opts, ctx, out);
      else if (opts.has('remove')) removeAcls(opts, ctx, out);
      else listAcls(opts, ctx, out);
      return out.result(0);
    } catch (e) {
      if (e instanceof OptionError || e instanceof UsageError) {
        out.println(e.message);
        out.println(usage(aclCommand));
      } else if (e instanceof CommandError) out.println(`Error while executing ACL command: ${e.message}`);
      else if (e instanceof SimulatorNote) out.println(`Note (simulator): ${e.message}`);
      else throw e;
      return out.result(1);
    }
  },
};

// AclCommandOptions.checkArgs
function checkArgs(opts: ParsedOptions): void {
  if (opts.has('bootstrap-server') && opts.has('bootstrap-controller'))
    throw new UsageError('Only one of --bootstrap-server or --bootstrap-controller must be specified');
  if (!opts.has('bootstrap-server') && !opts.has('bootstrap-controller'))
    throw new UsageError('One of --bootstrap-server or --bootstrap-controller must be specified');
  if (['add', 'remove', 'list'].filter((a) => opts.has(a)).length !== 1)
    throw new UsageError('Command must include exactly one action: --list, --add, --remove. ');
  const invalid = (used: string, others: string[]) => {
    if (!opts.has(used)) return;
    const bad = others.find((o) => opts.has(o));
    if (bad) throw new UsageError(`Option "[${used}]" can't be used with option "[${bad}]"`);
  };
  invalid('list', ['producer', 'consumer', 'allow-host', 'allow-principal', 'deny-host', 'deny-principal']);
  invalid('producer', ['operation', 'deny-principal', 'deny-host']);
  invalid('consumer', ['operation', 'deny-principal', 'deny-host']);
  if (opts.has('principal') && !opts.has('list'))
    throw new UsageError('The --principal option is only available if --list is set');
  if (opts.has('producer') && !opts.has('topic'))
    throw new UsageError('With --producer you must specify a --topic');
  if (opts.has('idempotent') && !opts.has('producer'))
    throw new UsageError('The --idempotent option is only available if --producer is set');
  if (
    opts.has('consumer') &&
    (!opts.has('topic') ||
      !opts.has('group') ||
      (!opts.has('producer') && (opts.has('cluster') || opts.has('transactional-id'))))
  )
    throw new UsageError(
      'With --consumer you must specify a --topic and a --group and no --cluster or --transactional-id option should be specified.',
    );
  if (opts.has('bootstrap-controller'))
    throw new SimulatorNote(
      'the simulated controllers take no Admin requests here; use --bootstrap-server (any broker answers).',
    );
}

/** PatternTypeConverter: joptsimple's EnumConverter is case-insensitive; UNKNOWN is refused. */
function patternTypeOf(opts: ParsedOptions): PatternType {
  const text = opts.value('resource-pattern-type');
  if (text === undefined) return 'LITERAL';
  const upper = text.toUpperCase();
  if (upper === 'LITERAL' || upper === 'PREFIXED' || upper === 'ANY' || upper === 'MATCH') return upper;
  throw new OptionError(`Cannot parse argument '${text}' of option resource-pattern-type`);
}

// getResourceFilter: topics, the cluster (literal only), groups, transactional ids, tokens, users.
function resourceFilters(opts: ParsedOptions, dieIfNone: boolean): Pattern[] {
  const patternType = patternTypeOf(opts);
  const filters: Pattern[] = [];
  const push = (resourceType: ResourceType, name: string) => {
    if (!filters.some((f) => f.resourceType === resourceType && f.name === name))
      filters.push({ resourceType, name, patternType });
  };
  for (const t of opts.values('topic')) push('TOPIC', t.trim());
  if (patternType === 'LITERAL' && (opts.has('cluster') || opts.has('idempotent')))
    filters.push({ resourceType: 'CLUSTER', name: 'kafka-cluster', patternType: 'LITERAL' });
  for (const g of opts.values('group')) push('GROUP', g.trim());
  for (const t of opts.values('transactional-id')) push('TRANSACTIONAL_ID', t);
  for (const t of opts.values('delegation-token')) push('DELEGATION_TOKEN', t.trim());
  for (const u of opts.values('user-principal')) push('USER', u.trim());
  if (filters.length === 0 && dieIfNone)
    throw new UsageError(
      'You must provide at least one resource: --topic <topic> or --cluster or --group <group> or --delegation-token <Delegation Token ID>',
    );
  return filters;
}

/** SecurityUtils.parseKafkaPrincipal: `type:name`. */
function parsePrincipal(text: string): string {
  const s = text.trim();
  if (s === '' || s.indexOf(':') < 0)
    throw new CommandError(`expected a string in format principalType:principalName but got ${s}`);
  return s;
}

// getAcl: every principal × operation × host, the ALLOWs first.
function entriesFor(opts: ParsedOptions, operations: readonly KafkaOperation[]): Entry[] {
  const entries: Entry[] = [];
  const add = (principalOpt: string, hostOpt: string, permission: 'ALLOW' | 'DENY') => {
    const principals = [...new Set(opts.values(principalOpt).map(parsePrincipal))];
    const hosts = opts.has(hostOpt) ? [...new Set(opts.values(hostOpt).map((h) => h.trim()))] : ['*'];
    for (const principal of principals)
      for (const operation of operations)
        for (const host of hosts) entries.push({ principal, host, operation, permission });
  };
  add('allow-principal', 'allow-host', 'ALLOW');
  add('deny-principal', 'deny-host', 'DENY');
  return entries;
}

// getResourceFilterToAcls with validateOperation.
function filterToEntries(opts: ParsedOptions): [Pattern, Entry[]][] {
  const filters = resourceFilters(opts, true);
  const pairs: [Pattern, Entry[]][] = [];
  if (!opts.has('producer') && !opts.has('consumer')) {
    const ops = opts.has('operation')
      ? opts.values('operation').map((o) => parseOperation(o.trim()))
      : ['ALL' as const];
    const entries = entriesFor(opts, [...new Set(ops)]);
    for (const f of filters) pairs.push([f, entries]);
  }
  if (opts.has('producer')) {
    for (const f of filters.filter((f) => f.resourceType === 'TOPIC'))
      pairs.push([f, entriesFor(opts, ['WRITE', 'DESCRIBE', 'CREATE'])]);
    for (const f of filters.filter((f) => f.resourceType === 'TRANSACTIONAL_ID'))
      pairs.push([f, entriesFor(opts, ['WRITE', 'DESCRIBE'])]);
    if (opts.has('idempotent'))
      pairs.push([
        { resourceType: 'CLUSTER', name: 'kafka-cluster', patternType: 'LITERAL' },
        entriesFor(opts, ['IDEMPOTENT_WRITE']),
      ]);
  }
  if (opts.has('consumer')) {
    for (const f of filters.filter((f) => f.resourceType === 'TOPIC')) {
      const existing = pairs.find(([p]) => p === f);
      const entries = entriesFor(opts, ['READ', 'DESCRIBE']);
      if (existing) existing[1] = [...entries, ...existing[1]];
      else pairs.push([f, entries]);
    }
    for (const f of filters.filter((f) => f.resourceType === 'GROUP'))
      pairs.push([f, entriesFor(opts, ['READ'])]);
  }
  for (const [pattern, entries] of pairs) {
    const valid = [
      ...OPERATIONS.filter((o) => SUPPORTED[pattern.resourceType].includes(o) && o !== 'ALL'),
      'ALL',
    ];
    if (entries.some((e) => !valid.includes(e.operation)))
      throw new UsageError(
        `ResourceType ${pattern.resourceType} only supports operations ${valid.map(pascal).join(', ')}`,
      );
  }
  return pairs;
}

/** What the engine's authorizer cannot hold: the simulator says so before anything is sent. */
function checkModelled(pattern: Pattern, entries: readonly Entry[]): void {
  if (pattern.resourceType !== 'TOPIC' && pattern.resourceType !== 'GROUP')
    throw new SimulatorNote(
      `the simulated authorizer holds ACLs on topics and groups only, not on ${pattern.resourceType} resources (docs/cli.md).`,
    );
  const op = entries.find((e) => !ENGINE_OPERATIONS[e.operation]);
  if (op)
    throw new SimulatorNote(
      `the simulated authorizer enforces the operations Read, Write, Describe and All only, not ${pascal(op.operation)} (docs/cli.md).`,
    );
  const host = entries.find((e) => e.host !== '*');
  if (host)
    throw new SimulatorNote(
      `clients have no host addresses in the simulator; ACLs apply from every host ('*'), not ${host.host}.`,
    );
}

function bindingOf(pattern: Pattern, e: Entry): AclBinding {
  return {
    principal: e.principal,
    operation: ENGINE_OPERATIONS[e.operation]!,
    resourceType: pattern.resourceType === 'TOPIC' ? 'topic' : 'group',
    resourceName: pattern.name,
    patternType: pattern.patternType === 'PREFIXED' ? 'prefixed' : 'literal',
    permission: e.permission === 'ALLOW' ? 'allow' : 'deny',
  };
}

function patternOfBinding(a: AclBinding): Pattern {
  return {
    resourceType: a.resourceType === 'topic' ? 'TOPIC' : 'GROUP',
    name: a.resourceName,
    patternType: a.patternType === 'prefixed' ? 'PREFIXED' : 'LITERAL',
  };
}
const entryOfBinding = (a: AclBinding): Entry => ({
  principal: a.principal,
  host: '*',
  operation: toKafkaOperation(a.operation),
  permission: a.permission === 'allow' ? 'ALLOW' : 'DENY',
});

/** ResourcePatternFilter.matches: a specific type matches itself; ANY the same name; MATCH what affects the name. */
function filterMatches(filter: Pattern, p: Pattern): boolean {
  if (filter.resourceType !== p.resourceType) return false;
  switch (filter.patternType) {
    case 'LITERAL':
    case 'PREFIXED':
      return p.patternType === filter.patternType && p.name === filter.name;
    case 'ANY':
      return p.name === filter.name;
    case 'MATCH':
      if (p.patternType === 'LITERAL') return p.name === filter.name || p.name === '*';
      return filter.name.startsWith(p.name);
  }
}

function addAcls(opts: ParsedOptions, ctx: ToolContext, out: Printer): void {
  const patternType = patternTypeOf(opts);
  if (patternType === 'ANY' || patternType === 'MATCH')
    throw new UsageError(
      `A '--resource-pattern-type' value of '${patternType}' is not valid when adding acls.`,
    );
  const pairs = filterToEntries(opts);
  if (pairs.some(([, entries]) => entries.length === 0))
    throw new UsageError(
      'You must specify one of: --allow-principal, --deny-principal when trying to add ACLs.',
    );
  for (const [pattern, entries] of pairs) checkModelled(pattern, entries);
  for (const [pattern, entries] of pairs) {
    out.println(`Adding ACLs for resource \`${patternText(pattern)}\`:${entriesBlock(entries)}`);
    for (const e of entries) {
      const binding = bindingOf(pattern, e);
      // CreateAcls of a binding that exists already succeeds and changes nothing.
      if (ctx.w.security.acls.some((a) => sameBinding(a, binding))) continue;
      const error = ctx.apply({ type: 'addAcl', ...binding });
      if (error) throw new CommandError(kafkaMessage(error));
      out.changed = true;
    }
  }
}

function sameBinding(a: AclBinding, b: AclBinding): boolean {
  return (
    a.principal === b.principal &&
    a.operation === b.operation &&
    a.resourceType === b.resourceType &&
    a.resourceName === b.resourceName &&
    (a.patternType ?? 'literal') === (b.patternType ?? 'literal') &&
    a.permission === b.permission
  );
}

function removeAcls(opts: ParsedOptions, ctx: ToolContext, out: Printer): void {
  const pairs = filterToEntries(opts);
  for (const [filter, entries] of pairs) {
    if (filter.resourceType !== 'TOPIC' && filter.resourceType !== 'GROUP') checkModelled(filter, entries);
    const question = entries.length
      ? `Are you sure you want to remove ACLs:${entriesBlock(entries)} from resource filter \`${patternText(filter)}\`? (y/n)`
      : `Are you sure you want to delete all ACLs for resource filter \`${patternText(filter)}\`? (y/n)`;
    // confirmAction: with --force no question; otherwise a line of stdin must say y.
    if (!opts.has('force')) {
      out.println(question);
      const answer = ctx.stdin?.split('\n')[0];
      if (answer === undefined)
        throw new SimulatorNote(
          "the terminal cannot answer a tool's question; nothing was removed. Add --force, or pipe the answer: echo y | kafka-acls.sh …",
        );
      if (answer.toLowerCase() !== 'y') continue;
    }
    // DeleteAcls with the filter and each entry's filter (or any entry when none was given).
    const doomed = ctx.w.security.acls.filter((a) => {
      if (!filterMatches(filter, patternOfBinding(a))) return false;
      if (!entries.length) return true;
      const e = entryOfBinding(a);
      return entries.some(
        (f) =>
          f.principal === e.principal &&
          f.host === e.host &&
          f.operation === e.operation &&
          f.permission === e.permission,
      );
    });
    for (const a of doomed) {
      const error = ctx.apply({ type: 'removeAcl', ...a });
      if (error) throw new CommandError(kafkaMessage(error));
      out.changed = true;
    }
  }
}

function listAcls(opts: ParsedOptions, ctx: ToolContext, out: Printer): void {
  const filters = resourceFilters(opts, false);
  const principals = opts.values('principal').map(parsePrincipal);
  const byResource = new Map<string, { pattern: Pattern; entries: Entry[] }>();
  for (const a of ctx.w.security.acls) {
    const pattern = patternOfBinding(a);
    if (filters.length && !filters.some((f) => filterMatches(f, pattern))) continue;
    const key = patternText(pattern);
    const group = byResource.get(key) ?? { pattern, entries: [] };
    group.entries.push(entryOfBinding(a));
    byResource.set(key, group);
  }
  const print = (groups: { pattern: Pattern; entries: Entry[] }[]) => {
    for (const g of groups)
      if (g.entries.length)
        out.println(`Current ACLs for resource \`${patternText(g.pattern)}\`:${entriesBlock(g.entries)}`);
  };
  if (!principals.length) return print([...byResource.values()]);
  for (const principal of [...new Set(principals)]) {
    out.println(`ACLs for principal \`${principal}\``);
    print(
      [...byResource.values()].map((g) => ({
        ...g,
        entries: g.entries.filter((e) => e.principal === principal),
      })),
    );
  }
}
