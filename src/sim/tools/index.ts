// Kafka's command-line tools (apache/kafka's `tools` module) run against the simulated cluster:
// one line is split as the shell splits it, the first word names the tool, and the tool answers
// from the cluster's state at this instant, in Kafka's own format. A line that changes the
// cluster does so through the same engine paths as the page's forms.

import { aclCommand } from './aclCommand';
import { configCommand } from './configCommand';
import { consumerGroupCommand } from './consumerGroupCommand';
import { consoleConsumer } from './consoleConsumer';
import { consoleProducer } from './consoleProducer';
import { featureCommand } from './featureCommand';
import { getOffsetShell } from './getOffsetShell';
import { leaderElectionCommand } from './leaderElectionCommand';
import { metadataQuorumCommand } from './metadataQuorumCommand';
import { reassignPartitionsCommand } from './reassignPartitionsCommand';
import { readFile, runShell, SHELL_COMMANDS, writeFile } from './shell';
import { tokenize } from './tokenizer';
import { transactionsCommand } from './transactionsCommand';
import type { Tool, ToolContext, ToolResult } from './tool';
import { topicCommand } from './topicCommand';

export type { ToolContext, ToolResult } from './tool';

/** Every tool, by its script name. */
export const TOOLS: readonly Tool[] = [
  topicCommand,
  consumerGroupCommand,
  metadataQuorumCommand,
  configCommand,
  leaderElectionCommand,
  reassignPartitionsCommand,
  getOffsetShell,
  aclCommand,
  featureCommand,
  consoleProducer,
  consoleConsumer,
  transactionsCommand,
];

/** For completion in a terminal: each tool's name, sub-commands and long options. */
export const CLI_TOOLS: readonly {
  name: string;
  subcommands: readonly string[];
  options: readonly string[];
}[] = TOOLS.map((t) => ({
  name: t.name,
  subcommands: t.subcommands ?? [],
  options: t.options.map((o) => `--${o.name}`),
}));

/** The tool a word names: `kafka-topics.sh`, `kafka-topics` or `bin/kafka-topics.sh`. */
export function findTool(word: string): Tool | undefined {
  const base = word.slice(word.lastIndexOf('/') + 1).replace(/\.sh$/, '');
  return TOOLS.find((t) => t.name === `${base}.sh`);
}

/** Runs one command line; with `> file`, what it prints goes to the file instead. */
export function runCli(line: string, ctx: ToolContext): ToolResult {
  const split = tokenize(line);
  if ('error' in split) return { output: `sh: syntax error: ${split.error}`, exitCode: 2, changed: false };
  // A pipeline runs left to right, each command's output the next one's standard input.
  let stdin: string | undefined;
  let changed = false;
  if (split.input !== undefined) {
    stdin = readFile(ctx.w, split.input);
    if (stdin === undefined)
      return { output: `sh: ${split.input}: No such file or directory`, exitCode: 1, changed: false };
  }
  for (const words of split.upstream ?? []) {
    const before = runWords(words[0]!, words.slice(1), withStdin(ctx, stdin));
    changed ||= before.changed;
    stdin = before.output === '' ? '' : `${before.output}\n`;
  }
  const [first, ...args] = split.words;
  const last: ToolResult =
    first === undefined
      ? { output: '', exitCode: 0, changed: false }
      : runWords(first, args, withStdin(ctx, stdin));
  const ran = { ...last, changed: last.changed || changed };
  if (split.redirect === undefined) return ran;
  const error = writeFile(ctx.w, split.redirect, ran.output === '' ? '' : `${ran.output}\n`);
  if (error) return { output: error, exitCode: 1, changed: ran.changed };
  return { output: '', exitCode: ran.exitCode, changed: true };
}

const withStdin = (ctx: ToolContext, stdin: string | undefined): ToolContext => {
  const { stdin: _, ...rest } = ctx;
  return stdin === undefined ? rest : { ...rest, stdin };
};

function runWords(first: string, args: readonly string[], ctx: ToolContext): ToolResult {
  const shell = runShell(first, args, ctx.w, ctx.stdin);
  if (shell) return shell;
  const tool = findTool(first);
  if (!tool)
    return {
      output: `sh: ${first}: command not found (the tools here: ${TOOLS.map((t) => t.name).join(', ')}; and ${SHELL_COMMANDS.join(', ')})`,
      exitCode: 127,
      changed: false,
    };
  return tool.run(args, ctx);
}
