// What every tool shares: the cluster it reads, the way it changes it, and how it prints.

import { CONFIG_DEFS, parseConfigValue, type ConfigScope } from '../model/config';
import type { Command, ConfigValue } from '../model/types';
import type { World } from '../model/world';
import type { OptionSpec } from './options';

export interface ToolContext {
  w: World;
  /** Sends a command as the page's own forms do (validated, then applied); Kafka's error or null. */
  apply(command: Command): string | null;
  /** The simulator's partition limit (LIMITS.maxPartitions), for --alter --partitions. */
  maxPartitions: number;
  /** What the line feeds the tool's standard input (`echo … |` or `< file`); undefined with none. */
  stdin?: string;
}

export interface ToolResult {
  /** What the tool printed, stdout and stderr in the order written. */
  output: string;
  /** 0 when the tool succeeded, as its process would exit. */
  exitCode: number;
  /** The line changed the cluster (wrote metadata, started a client, …). */
  changed: boolean;
}

export interface Tool {
  /** The script's name in Kafka's bin/ (kafka-topics.sh). */
  name: string;
  /** The one-line purpose the tool prints above its usage. */
  purpose: string;
  options: readonly OptionSpec[];
  /** Sub-commands named by a positional word (kafka-metadata-quorum.sh describe). */
  subcommands?: readonly string[];
  run(args: readonly string[], ctx: ToolContext): ToolResult;
}

/** Collects a tool's output (System.out and System.err, in the order written) and whether it changed the cluster. */
export class Printer {
  private text = '';
  changed = false;
  /** System.out.print. */
  print(text: string): void {
    this.text += text;
  }
  /** System.out.println. */
  println(line = ''): void {
    this.text += `${line}\n`;
  }
  /** The output without the final line break, as a terminal shows it before the next prompt. */
  result(exitCode: number): ToolResult {
    return { output: this.text.replace(/\n$/, ''), exitCode, changed: this.changed };
  }
}

/** Java's printf `%-Ns`: the text padded on the right to N characters. */
export const left = (text: string | number, width: number) => String(text).padEnd(width);

/** The simulator's host names for Kafka's nodes (the cluster has no network addresses of its own). */
export const brokerHost = (id: number) => `kafka-${id}`;

/** An engine error `CODE: message` (or a validator's `path: message`) in the tool's words: the message alone. */
export function kafkaMessage(error: string): string {
  return error.replace(/^(command(\.[\w.[\]]+)?|[A-Z_]+): /, '');
}

/** Java's Integer.parseInt for an option value, or null. */
export function parseInt32(text: string | undefined): number | null {
  if (text === undefined || !/^[+-]?\d+$/.test(text)) return null;
  const n = Number(text);
  return n >= -2147483648 && n <= 2147483647 ? n : null;
}

/** A config value typed as the registry types it ("2" → 2, "true" → true); text the engine will refuse stays text. */
export function typedConfig(name: string, value: string, scope: ConfigScope): ConfigValue {
  const def = Object.prototype.hasOwnProperty.call(CONFIG_DEFS, name) ? CONFIG_DEFS[name] : undefined;
  if (!def || !def.scopes.includes(scope)) return value;
  try {
    return parseConfigValue(def, value);
  } catch {
    return value;
  }
}

/** The Java exception a Kafka error code surfaces as in a tool's output. */
export function exceptionOf(error: string): string {
  const code = /^([A-Z_]+): /.exec(error)?.[1];
  const names: Record<string, string> = {
    INVALID_CONFIG: 'org.apache.kafka.common.errors.InvalidConfigurationException',
    UNKNOWN_TOPIC_OR_PARTITION: 'org.apache.kafka.common.errors.UnknownTopicOrPartitionException',
    REQUEST_TIMED_OUT: 'org.apache.kafka.common.errors.TimeoutException',
    INVALID_REQUEST: 'org.apache.kafka.common.errors.InvalidRequestException',
    POLICY_VIOLATION: 'org.apache.kafka.common.errors.PolicyViolationException',
  };
  const name = (code && names[code]) ?? 'org.apache.kafka.common.errors.ApiException';
  return `${name}: ${kafkaMessage(error)}`;
}
