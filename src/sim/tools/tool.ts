// What every tool shares: the cluster it reads, the way it changes it, and how it prints.

import type { Command } from '../model/types';
import type { World } from '../model/world';
import type { OptionSpec } from './options';

export interface ToolContext {
  w: World;
  /** Sends a command as the page's own forms do (validated, then applied); Kafka's error or null. */
  apply(command: Command): string | null;
  /** The simulator's partition limit (LIMITS.maxPartitions), for --alter --partitions. */
  maxPartitions: number;
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
