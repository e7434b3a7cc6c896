// FeatureCommand (apache/kafka tools/src/main/java/org/apache/kafka/tools/FeatureCommand.java):
// kafka-features.sh describe prints each feature the brokers support with its finalized level, and
// upgrade / downgrade / disable --feature change a level. The simulator's features are those it
// models (docs/cli.md): eligible.leader.replicas.version is the one level it lets change (KIP-966, the
// cluster setting of that name); the others are fixed at what its protocols implement.

import { activeController } from '../kraft/quorumController';
import { clusterValue } from '../model/image';
import { image, reachable } from './cluster';
import { OptionError, parseOptions, type OptionSpec, type ParsedOptions } from './options';
import { kafkaMessage, Printer, type Tool, type ToolContext } from './tool';

const OPTIONS: OptionSpec[] = [
  {
    name: 'bootstrap-server',
    arg: 'BOOTSTRAP_SERVER',
    description:
      'A comma-separated list of host:port pairs to use for establishing the connection to the Kafka cluster.',
  },
  {
    name: 'bootstrap-controller',
    arg: 'BOOTSTRAP_CONTROLLER',
    description:
      'A comma-separated list of host:port pairs to use for establishing the connection to the KRaft quorum.',
  },
  {
    name: 'command-config',
    arg: 'COMMAND_CONFIG',
    description: 'Property file containing configs to be passed to Admin Client.',
  },
  {
    name: 'feature',
    arg: 'FEATURE',
    repeated: true,
    description:
      'A feature upgrade we should perform, in feature=level format. For example: `metadata.version=5`.',
  },
  {
    name: 'release-version',
    arg: 'RELEASE_VERSION',
    description: 'The release version to update all features to.',
  },
  {
    name: 'metadata',
    arg: 'METADATA',
    description: 'DEPRECATED -- The level to which we should upgrade the metadata.',
  },
  { name: 'dry-run', description: 'Validate this upgrade, but do not perform it.' },
  { name: 'unsafe', description: 'Perform this downgrade even if it may irreversibly destroy metadata.' },
  { name: 'help', description: 'show this help message and exit' },
];

const SUBCOMMANDS = [
  'describe',
  'upgrade',
  'downgrade',
  'disable',
  'version-mapping',
  'feature-dependencies',
];

/** argparse4j's usage line of the tool (the bootstrap group is added before --command-config). */
const USAGE =
  'usage: kafka-features [-h] (--bootstrap-server BOOTSTRAP_SERVER | --bootstrap-controller BOOTSTRAP_CONTROLLER)\n' +
  `                      [--command-config COMMAND_CONFIG] {${SUBCOMMANDS.join(',')}} ...`;

interface FeatureModel {
  min: number;
  max: number;
  finalized: (ctx: ToolContext) => number;
}

/** MetadataVersion's feature levels and their release names, the ones the table below uses. */
const METADATA_VERSIONS: Record<number, string> = { 7: '3.3-IV3', 27: '4.1-IV1' };

/**
 * The features of a Kafka 4.1 broker as the simulator models them (BrokerFeatures.supportedFeatures
 * and the finalized levels of a cluster formatted by it). share.version and streams.version
 * (early-access groups) are left out: the simulator has neither group type.
 */
const FEATURES: Record<string, FeatureModel> = {
  // KIP-966: the simulator's cluster setting of the same name (model/configDefs.ts).
  'eligible.leader.replicas.version': {
    min: 0,
    max: 1,
    finalized: (ctx) => Number(clusterValue(ctx.w, image(ctx.w), 'eligible.leader.replicas.version')),
  },
  // KIP-848's consumer protocol is modelled (groups/consumerGroup.ts).
  'group.version': { min: 0, max: 1, finalized: (ctx) => finalizedInLog(ctx, 'group.version') },
  // The quorum is static (controller.quorum.voters), as kraft.version 0; KIP-853 is not modelled.
  'kraft.version': { min: 0, max: 1, finalized: () => 0 },
  'metadata.version': { min: 7, max: 27, finalized: (ctx) => finalizedInLog(ctx, 'metadata.version') },
  // KIP-98's transaction protocol: the epoch is bumped at initTransactions only, not per transaction (KIP-890's TV 2).
  'transaction.version': { min: 0, max: 2, finalized: (ctx) => finalizedInLog(ctx, 'transaction.version') },
};

/** The level a FeatureLevelRecord finalized in the metadata log (model/features.ts writes them at bootstrap); 0 without one. */
const finalizedInLog = (ctx: ToolContext, feature: string) => image(ctx.w).features.get(feature) ?? 0;

/** FeatureCommand.levelToString: metadata.version by its release name, the others as numbers. */
const levelToString = (feature: string, level: number) =>
  feature === 'metadata.version' ? (METADATA_VERSIONS[level] ?? String(level)) : String(level);

/** TerseException and the other exceptions mainNoExit prints: the message alone. */
class CommandError extends Error {}

export const featureCommand: Tool = {
  name: 'kafka-features.sh',
  purpose: 'This tool manages feature flags in Kafka.',
  options: OPTIONS,
  subcommands: SUBCOMMANDS,
  run(args, ctx) {
    const out = new Printer();
    const fail = (message: string) => {
      out.println(USAGE);
      out.println(`kafka-features: error: ${message}`);
      return out.result(1);
    };
    let opts: ParsedOptions;
    try {
      opts = parseOptions(args, OPTIONS);
    } catch (e) {
      if (!(e instanceof OptionError)) throw e;
      const word = /^'(.*)' is not a recognized option$/.exec(e.message);
      return fail(word ? `unrecognized arguments: '--${word[1]}'` : e.message);
    }
    if (opts.has('help')) {
      out.println(USAGE);
      out.println('\nThis tool manages feature flags in Kafka.');
      return out.result(0);
    }
    if (opts.has('bootstrap-server') && opts.has('bootstrap-controller'))
      return fail('argument --bootstrap-controller: not allowed with argument --bootstrap-server');
    if (!opts.has('bootstrap-server') && !opts.has('bootstrap-controller'))
      return fail('one of the arguments --bootstrap-server --bootstrap-controller is required');
    const [command, ...rest] = opts.positional;
    if (command === undefined) return fail('too few arguments');
    if (!SUBCOMMANDS.includes(command))
      return fail(
        `argument command: invalid choice: '${command}' (choose from ${SUBCOMMANDS.map((s) => `'${s}'`).join(', ')})`,
      );
    if (rest.length) return fail(`unrecognized arguments: '${rest.join(' ')}'`);
    const allowed: Record<string, string[]> = {
      describe: [],
      upgrade: ['feature', 'release-version', 'metadata', 'dry-run'],
      downgrade: ['feature', 'release-version', 'metadata', 'dry-run', 'unsafe'],
      disable: ['feature', 'dry-run', 'unsafe'],
      'version-mapping': ['release-version'],
      'feature-dependencies': ['feature'],
    };
    const stray = ['feature', 'release-version', 'metadata', 'dry-run', 'unsafe'].find(
      (o) => opts.has(o) && !allowed[command]!.includes(o),
    );
    if (stray) return fail(`unrecognized arguments: '--${stray}'`);
    try {
      if (command === 'version-mapping' || command === 'feature-dependencies')
        throw new CommandError(
          `Note (simulator): ${command} prints Kafka's release tables, which the simulator does not carry; see docs/cli.md.`,
        );
      if (!reachable(ctx.w))
        throw new CommandError(
          'org.apache.kafka.common.errors.TimeoutException: Timed out waiting for a node assignment. Call: describeFeatures',
        );
      if (command === 'describe') describe(ctx, out);
      else update(command, opts, ctx, out);
      return out.result(0);
    } catch (e) {
      if (!(e instanceof CommandError)) throw e;
      out.println(e.message);
      return out.result(1);
    }
  },
};

// handleDescribe: the supported features sorted by name; Epoch is the finalized features' epoch,
// which in KRaft is the offset of the metadata image the broker serves.
function describe(ctx: ToolContext, out: Printer): void {
  const epoch = image(ctx.w).offset;
  for (const name of Object.keys(FEATURES).sort()) {
    const f = FEATURES[name]!;
    out.println(
      `Feature: ${name}\tSupportedMinVersion: ${levelToString(name, f.min)}\tSupportedMaxVersion: ${levelToString(name, f.max)}\tFinalizedVersionLevel: ${levelToString(name, f.finalized(ctx))}\tEpoch: ${epoch < 0 ? '-' : epoch}`,
    );
  }
}

// handleUpgradeOrDowngrade / handleDisable with --feature, then update(): one line per feature, by name.
function update(op: string, opts: ParsedOptions, ctx: ToolContext, out: Printer): void {
  if (opts.has('release-version') || opts.has('metadata'))
    throw new CommandError(
      'Note (simulator): metadata.version is fixed at 4.1-IV1 here; only --feature eligible.leader.replicas.version=N changes a level (docs/cli.md).',
    );
  const updates = new Map<string, number>();
  for (const text of opts.values('feature')) {
    let name = text.trim();
    let level = 0;
    if (op !== 'disable') {
      const eq = text.indexOf('=');
      if (eq < 0) throw new CommandError(`Can't parse feature=level string ${text}: equals sign not found.`);
      name = text.slice(0, eq).trim();
      const levelText = text.slice(eq + 1).trim();
      level = Number(levelText);
      if (!/^[+-]?\d+$/.test(levelText) || level < -32768 || level > 32767)
        throw new CommandError(
          `Can't parse feature=level string ${text}: unable to parse ${levelText} as a short.`,
        );
    }
    if (updates.has(name)) throw new CommandError(`Feature ${name} was specified more than once.`);
    updates.set(name, level);
  }
  if (updates.size === 0) throw new CommandError(`You must specify at least one feature to ${op}`);
  const dryRun = opts.has('dry-run');
  let failures = 0;
  for (const name of [...updates.keys()].sort()) {
    const level = updates.get(name)!;
    const error = updateOne(op, name, level, dryRun, ctx);
    if (error) {
      const suffix = op === 'disable' ? `disable ${name}` : `${op} ${name} to ${level}`;
      out.println(`${dryRun ? 'Can not ' : 'Could not '}${suffix}. ${error}`);
      failures++;
    } else {
      if (!dryRun) out.changed = true;
      out.println(
        `${name}${dryRun ? ' can be ' : ' was '}${op === 'disable' ? 'disabled.' : `${op}d to ${level}.`}`,
      );
    }
  }
  if (failures) throw new CommandError(`${failures} out of ${updates.size} operation(s) failed.`);
}

/** FeatureControlManager.updateFeature's answer to one FeatureUpdate (and QuorumFeatures.reasonNotSupported), or null. */
function updateOne(
  op: string,
  name: string,
  level: number,
  dryRun: boolean,
  ctx: ToolContext,
): string | null {
  const invalid = (why: string) => `Invalid update version ${level} for feature ${name}. ${why}`;
  const f = FEATURES[name];
  if (level < 0) return invalid('A feature version cannot be less than 0.');
  const controller = activeController(ctx.w)?.id ?? 0;
  if (!f) return invalid(`Local controller ${controller} does not support this feature.`);
  if (level < f.min || level > f.max)
    return invalid(
      `Local controller ${controller} only supports versions ${f.min === f.max ? f.min : `${f.min}-${f.max}`}`,
    );
  const current = f.finalized(ctx);
  if (level < current && op === 'upgrade')
    return invalid(
      "Can't downgrade the version of this feature without setting the upgrade type to either safe or unsafe downgrade.",
    );
  if (level > current && op !== 'upgrade') return invalid("Can't downgrade to a newer version.");
  if (level === current) return null;
  if (name !== 'eligible.leader.replicas.version')
    return `Note (simulator): ${name} is fixed at ${levelToString(name, current)} here (docs/cli.md).`;
  if (dryRun) return null;
  const error = ctx.apply({
    type: 'alterConfig',
    resourceType: 'cluster',
    configs: { 'eligible.leader.replicas.version': level },
  });
  return error ? kafkaMessage(error) : null;
}
