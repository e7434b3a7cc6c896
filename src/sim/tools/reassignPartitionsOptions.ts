// ReassignPartitionsCommandOptions (apache/kafka tools/src/main/java/org/apache/kafka/tools/reassign/
// ReassignPartitionsCommandOptions.java) and ReassignPartitionsCommand.validateAndParseArgs: the
// options of kafka-reassign-partitions.sh, what each action needs and allows, and Kafka's messages.

import type { OptionSpec, ParsedOptions } from './options';

/** printUsageAndExit: the message and the usage. */
export class UsageError extends Error {}

export const OPTIONS: OptionSpec[] = [
  {
    name: 'verify',
    description:
      'Verify if the reassignment completed as specified by the --reassignment-json-file option. If there is a throttle engaged for the replicas specified, and the rebalance has completed, the throttle will be removed',
  },
  {
    name: 'generate',
    description:
      'Generate a candidate partition reassignment configuration. Note that this only generates a candidate assignment, it does not execute it.',
  },
  {
    name: 'execute',
    description: 'Kick off the reassignment as specified by the --reassignment-json-file option.',
  },
  { name: 'cancel', description: 'Cancel an active reassignment.' },
  { name: 'list', description: 'List all active partition reassignments.' },
  {
    name: 'bootstrap-server',
    arg: 'String: Server(s) to use for bootstrapping',
    description: 'the server(s) to use for bootstrapping.',
  },
  {
    name: 'bootstrap-controller',
    arg: 'String: bootstrap controller to connect to',
    description:
      'The controller to use for reassignment. By default, the tool will get the quorum controller. This option supports the actions --cancel and --list.',
  },
  {
    name: 'command-config',
    arg: 'String: Admin client property file',
    description: 'Property file containing configs to be passed to Admin Client.',
  },
  {
    name: 'reassignment-json-file',
    arg: 'String: manual assignment json file path',
    description:
      'The JSON file with the partition reassignment configurationThe format to use is - {"partitions": [{"topic": "foo", "partition": 1, "replicas": [1,2,3], "log_dirs": ["dir1","dir2","dir3"] }], "version":1 } Note that "log_dirs" is optional. When it is specified, its length must equal the length of the replicas list. The value in this list can be either "any" or the absolution path of the log directory on the broker. If absolute log directory path is specified, the replica will be moved to the specified log directory on the broker.',
  },
  {
    name: 'topics-to-move-json-file',
    arg: 'String: topics to reassign json file path',
    description:
      'Generate a reassignment configuration to move the partitions of the specified topics to the list of brokers specified by the --broker-list option. The format to use is - {"topics": [{"topic": "foo"},{"topic": "foo1"}], "version":1 }',
  },
  {
    name: 'broker-list',
    arg: 'String: brokerlist',
    description:
      'The list of brokers to which the partitions need to be reassigned in the form "0,1,2". This is required if --topics-to-move-json-file is used to generate reassignment configuration',
  },
  { name: 'disable-rack-aware', description: 'Disable rack aware replica assignment' },
  {
    name: 'throttle',
    arg: 'Long: throttle',
    description:
      'The movement of partitions between brokers will be throttled to this value (bytes/sec). This option can be included with --execute when a reassignment is started, and it can be altered by resubmitting the current reassignment along with the --additional flag. The throttle rate should be at least 1 KB/s. (default: -1)',
  },
  {
    name: 'replica-alter-log-dirs-throttle',
    arg: 'Long: replicaAlterLogDirsThrottle',
    description:
      'The movement of replicas between log directories on the same broker will be throttled to this value (bytes/sec). This option can be included with --execute when a reassignment is started, and it can be altered by resubmitting the current reassignment along with the --additional flag. The throttle rate should be at least 1 KB/s. (default: -1)',
  },
  {
    name: 'timeout',
    arg: 'Long: timeout',
    description:
      'The maximum time in ms to wait for log directory replica assignment to begin. (default: 10000)',
  },
  {
    name: 'additional',
    description:
      'Execute this reassignment in addition to any other ongoing ones. This option can also be used to change the throttle of an ongoing reassignment.',
  },
  { name: 'preserve-throttles', description: 'Do not modify broker or topic throttles.' },
  { name: 'help', description: 'Print usage information.' },
  { name: 'version', description: 'Display Kafka version.' },
];

export const ACTIONS = ['generate', 'execute', 'verify', 'cancel', 'list'] as const;
export type Action = (typeof ACTIONS)[number];

/** validateAndParseArgs: what each action needs and what it allows besides. */
const REQUIRED: Record<Action, string[]> = {
  verify: ['reassignment-json-file'],
  generate: ['topics-to-move-json-file', 'broker-list'],
  execute: ['reassignment-json-file'],
  cancel: ['reassignment-json-file'],
  list: [],
};
const PERMITTED: Record<Action, string[]> = {
  verify: ['bootstrap-server', 'command-config', 'preserve-throttles'],
  generate: ['bootstrap-server', 'broker-list', 'command-config', 'disable-rack-aware'],
  execute: [
    'additional',
    'bootstrap-server',
    'command-config',
    'throttle',
    'replica-alter-log-dirs-throttle',
    'timeout',
  ],
  cancel: ['bootstrap-server', 'bootstrap-controller', 'command-config', 'preserve-throttles', 'timeout'],
  list: ['bootstrap-server', 'bootstrap-controller', 'command-config'],
};

/** The option names in the order the line gave them (joptsimple's OptionSet.specs()). */
function givenOptions(args: readonly string[]): string[] {
  const names: string[] = [];
  for (const word of args) {
    if (!word.startsWith('-') || word === '-') continue;
    const body = word.replace(/^--?/, '');
    const name = body.split('=')[0] ?? body;
    const spec = OPTIONS.find((s) => s.name === name) ?? OPTIONS.find((s) => s.name.startsWith(name));
    if (spec && !names.includes(spec.name)) names.push(spec.name);
  }
  return names;
}

export function validateArgs(args: readonly string[], opts: ParsedOptions): Action {
  const actions = ACTIONS.filter((a) => opts.has(a));
  const [action] = actions;
  if (actions.length !== 1 || !action)
    throw new UsageError(
      `Command must include exactly one action: ${ACTIONS.map((a) => `--${a}`).join(', ')}`,
    );
  if (opts.has('bootstrap-server') && opts.has('bootstrap-controller'))
    throw new UsageError("Please don't specify both --bootstrap-server and --bootstrap-controller");
  if (!opts.has('bootstrap-server') && !opts.has('bootstrap-controller'))
    throw new UsageError('Please specify either --bootstrap-server or --bootstrap-controller');
  for (const required of REQUIRED[action])
    if (!opts.has(required)) throw new UsageError(`Missing required argument "[${required}]"`);
  for (const given of givenOptions(args))
    if (given !== action && !REQUIRED[action].includes(given) && !PERMITTED[action].includes(given))
      throw new UsageError(`Option "[${given}]" can't be used with action "[${action}]"`);
  return action;
}
