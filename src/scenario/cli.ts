// Completion for a terminal line of Kafka's tools: the tool's name first, then its sub-commands and
// long options, and the names of topics and groups after the options that take them.
import { CLI_TOOLS } from '../sim';

export { CLI_TOOLS };

export interface CompletionNames {
  topics?: readonly string[];
  groups?: readonly string[];
}

export interface Completion {
  /** The line with its last word completed as far as the candidates agree. */
  line: string;
  /** Every word that fits what was typed (more than one: the line stops where they differ). */
  candidates: string[];
}

const NAMED_BY: Record<string, keyof CompletionNames> = {
  '--topic': 'topics',
  '--entity-name': 'topics',
  '--group': 'groups',
};

/** Tab completion of the last word of `line`. */
export function completeLine(line: string, names: CompletionNames = {}): Completion {
  const start = line.lastIndexOf(' ') + 1;
  const word = line.slice(start);
  // In a pipeline (`echo 'k:v' | kafka-console-producer.sh …`) the command after the last `|`.
  const command = line.slice(line.lastIndexOf('|') + 1, start);
  const words = command.trim().split(/\s+/).filter(Boolean);
  let pool: readonly string[];
  if (words.length === 0) pool = CLI_TOOLS.map((t) => t.name);
  else {
    const name = words[0]!.slice(words[0]!.lastIndexOf('/') + 1).replace(/\.sh$/, '');
    const tool = CLI_TOOLS.find((t) => t.name === `${name}.sh`);
    if (!tool) return { line, candidates: [] };
    const previous = words[words.length - 1]!;
    const named = NAMED_BY[previous];
    if (named) pool = names[named] ?? [];
    else {
      const used = new Set(words);
      pool = [...tool.subcommands.filter((s) => !used.has(s)), ...tool.options.filter((o) => !used.has(o))];
    }
  }
  const candidates = pool.filter((c) => c.startsWith(word));
  if (candidates.length === 0) return { line, candidates };
  if (candidates.length === 1) return { line: line.slice(0, start) + candidates[0] + ' ', candidates };
  return { line: line.slice(0, start) + commonPrefix(candidates), candidates };
}

function commonPrefix(words: readonly string[]): string {
  let prefix = words[0]!;
  for (const w of words) while (!w.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}
