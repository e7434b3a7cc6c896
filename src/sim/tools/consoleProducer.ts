// ConsoleProducer (apache/kafka tools/src/main/java/org/apache/kafka/tools/ConsoleProducer.java, and
// LineMessageReader.java for the lines): kafka-console-producer.sh reads records from its standard
// input, one a line. A terminal line has no keyboard to type into a running tool, so the records
// come from a pipe or a file: `echo 'k1:v1' | kafka-console-producer.sh …`, `echo -e 'a\nb' | …`,
// or `… < records.txt`. Each record is the engine's produce command, sent by the client
// `console-producer` (its client.id), which a startProducer at rate 0 configures with the
// --producer-property values, as the tool builds a new KafkaProducer each run.

import type { Acks, ConfigValue } from '../model/types';
import { image, reachable } from './cluster';
import { OptionError, parseOptions, type OptionSpec, type ParsedOptions } from './options';
import { kafkaMessage, Printer, type Tool, type ToolContext } from './tool';
import { usage } from './usage';

const OPTIONS: OptionSpec[] = [
  { name: 'topic', arg: 'String: topic', description: 'REQUIRED: The topic name to produce messages to.' },
  {
    name: 'bootstrap-server',
    arg: 'String: server to connect to',
    description:
      'REQUIRED: The server(s) to connect to. The broker list string in the form HOST1:PORT1,HOST2:PORT2.',
  },
  {
    name: 'sync',
    description:
      'If set message send requests to the brokers are synchronously, one at a time as they arrive.',
  },
  {
    name: 'request-required-acks',
    arg: 'String: request required acks',
    description: 'The required `acks` of the producer requests (default: -1)',
  },
  {
    name: 'property',
    arg: 'String: prop',
    repeated: true,
    description:
      'A mechanism to pass user-defined properties in the form key=value to the message reader. This allows custom configuration for a user-defined message reader. Default properties include: parse.key=false, parse.headers=false, ignore.error=false, key.separator=\\t, headers.delimiter=\\t, headers.separator=,, headers.key.separator=:, null.marker= When set, any fields (key, value and headers) equal to this will be replaced by null',
  },
  {
    name: 'producer-property',
    arg: 'String: producer_prop',
    repeated: true,
    description: 'A mechanism to pass user-defined properties in the form key=value to the producer. ',
  },
  {
    name: 'producer.config',
    arg: 'String: config file',
    description:
      'Producer config properties file. Note that [producer-property] takes precedence over this config.',
  },
  {
    name: 'reader-config',
    arg: 'String: config file',
    description:
      'Config properties file for the message reader. Note that [property] takes precedence over this config.',
  },
  { name: 'help', description: 'Print usage information.' },
  { name: 'version', description: 'Display Kafka version.' },
];

class UsageError extends Error {}
/** What the simulator does not model, in its own words. */
class SimulatorNote extends Error {}

export const consoleProducer: Tool = {
  name: 'kafka-console-producer.sh',
  purpose: 'This tool helps to read data from standard input and publish it to Kafka.',
  options: OPTIONS,
  run(args, ctx) {
    const out = new Printer();
    try {
      const opts = parseOptions(args, OPTIONS);
      if (opts.has('help') || args.length === 0) {
        out.println(usage(consoleProducer));
        return out.result(opts.has('help') ? 0 : 1);
      }
      // checkArgs: checkRequiredArgs(topic), then ToolsUtils.validateBootstrapServer.
      if (!opts.has('topic')) throw new UsageError('Missing required argument "[topic]"');
      if (!opts.has('bootstrap-server') || opts.value('bootstrap-server')!.trim() === '')
        throw new UsageError('Error while validating the bootstrap address\n');
      for (const o of ['producer.config', 'reader-config'])
        if (opts.has(o))
          throw new SimulatorNote(
            `--${o} is not read here; give the properties with --producer-property / --property.`,
          );
      produceLines(opts, ctx, out);
      return out.result(0);
    } catch (e) {
      if (e instanceof OptionError || e instanceof UsageError) {
        out.println(e.message);
        out.println(usage(consoleProducer));
      } else if (e instanceof SimulatorNote) out.println(`Note (simulator): ${e.message}`);
      else if (e instanceof KafkaError) out.println(e.message);
      else throw e;
      return out.result(1);
    }
  },
};

/** e.printStackTrace(): the exception's class and message (its trace left out). */
class KafkaError extends Error {}

/** CommandLineUtils.parseKeyValueArgs: `key=value`, the value after the first `=`. */
function keyValues(list: readonly string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const kv of list) {
    const eq = kv.indexOf('=');
    if (eq < 0) throw new UsageError(`Invalid command line properties: ${list.join(' ')}`);
    map.set(kv.slice(0, eq), kv.slice(eq + 1));
  }
  return map;
}

/** A producer config value typed as the client registry reads it ("20" → 20, "true" → true). */
const typed = (v: string): ConfigValue =>
  /^-?\d+$/.test(v) ? Number(v) : v === 'true' || v === 'false' ? v === 'true' : v;

function produceLines(opts: ParsedOptions, ctx: ToolContext, out: Printer): void {
  const reader = keyValues(opts.values('property'));
  const producerProps = keyValues(opts.values('producer-property'));
  // maybeMergeOptions: --request-required-acks only when given (else the producer default, all).
  if (opts.has('request-required-acks')) producerProps.set('acks', opts.value('request-required-acks')!);
  const topic = opts.value('topic')!;
  const parseKey = reader.get('parse.key')?.trim().toLowerCase() === 'true';
  const keySeparator = reader.get('key.separator') ?? '\t';
  const ignoreError = reader.get('ignore.error')?.trim().toLowerCase() === 'true';
  for (const p of ['parse.headers', 'null.marker'])
    if (reader.has(p))
      throw new SimulatorNote(
        `records have no headers and no null values here; --property ${p} is not supported.`,
      );
  if (ctx.stdin === undefined)
    throw new SimulatorNote(
      `the terminal cannot type into a running tool; give the records on standard input, one a line: echo 'key:value' | kafka-console-producer.sh --bootstrap-server localhost:9092 --topic ${topic} --property parse.key=true --property key.separator=: (or … < file).`,
    );
  const lines = ctx.stdin.replace(/\n$/, '').split('\n');
  if (ctx.stdin === '') lines.length = 0;
  const clientId = String(producerProps.get('client.id') ?? 'console-producer');
  producerProps.delete('client.id');
  const acksText = producerProps.get('acks');
  const acks: Acks | undefined =
    acksText === undefined
      ? undefined
      : acksText === '-1' || acksText === 'all'
        ? 'all'
        : acksText === '0'
          ? 0
          : acksText === '1'
            ? 1
            : undefined;
  if (acksText !== undefined && acks === undefined)
    throw new KafkaError(
      `org.apache.kafka.common.config.ConfigException: Invalid value ${acksText} for configuration acks: String must be one of: all, -1, 0, 1`,
    );
  producerProps.delete('acks');
  const known = image(ctx.w).topics.has(topic);
  // LineMessageReader reads every line before the producer exists here, so a bad line changes nothing.
  const records = lines.map((line, i) => {
    // LineMessageReader.parse: the key before the first separator.
    let key: string | null = null;
    let value = line;
    if (parseKey) {
      const at = line.indexOf(keySeparator);
      if (at < 0) {
        if (!ignoreError)
          throw new KafkaError(
            `org.apache.kafka.common.KafkaException: No key separator found on line number ${i + 1}: '${line}'`,
          );
      } else {
        key = line.slice(0, at);
        value = line.slice(at + keySeparator.length);
      }
    }
    return { key, value };
  });
  // KafkaProducer's constructor: the client `console-producer` is made on the first run; a run
  // with --producer-property values closes it and makes it again with them (startProducer, rate 0).
  const existing = ctx.w.producers.get(clientId);
  if (!existing || producerProps.size > 0) {
    if (existing) {
      const stopped = ctx.apply({ type: 'stopProducer', producerId: clientId });
      if (stopped) throw new KafkaError(`org.apache.kafka.common.KafkaException: ${kafkaMessage(stopped)}`);
    }
    const config: Record<string, ConfigValue> = {};
    for (const [k, v] of producerProps) config[k] = typed(v);
    const topics = [...image(ctx.w).topics.keys()];
    const error = ctx.apply({
      type: 'startProducer',
      producerId: clientId,
      topic: topics.includes(topic) ? topic : (topics[0] ?? topic),
      ratePerSec: 0,
      ...(acks !== undefined ? { acks } : {}),
      config,
    });
    if (error) throw new KafkaError(`org.apache.kafka.common.KafkaException: ${kafkaMessage(error)}`);
    out.changed = true;
  }
  for (const { key, value } of records) {
    // ErrorLoggingCallback (logAsString false): sizes, not contents.
    const failed = (exception: string) =>
      out.println(
        `ERROR Error when sending message to topic ${topic} with key: ${key === null ? 'null' : `${key.length} bytes`}, value: ${value.length} bytes with error: (org.apache.kafka.clients.producer.internals.ErrorLoggingCallback)\n${exception}`,
      );
    // The producer waits max.block.ms for the topic's metadata, then fails the send.
    if (!known || !reachable(ctx.w)) {
      failed(
        `org.apache.kafka.common.errors.TimeoutException: Topic ${topic} not present in metadata after 60000 ms.`,
      );
      continue;
    }
    const error = ctx.apply({
      type: 'produce',
      topic,
      key,
      value,
      producerId: clientId,
      ...(acks !== undefined ? { acks } : {}),
    });
    if (error) failed(kafkaMessage(error));
    else out.changed = true;
  }
}
