// The tools' option parser, as joptsimple (the library Kafka's tools use) reads a command line:
// `--name value` or `--name=value`, a long option may be shortened to any prefix that names only
// one option, and an unknown option is refused with joptsimple's words.

export interface OptionSpec {
  name: string;
  /** What its argument is (joptsimple's describedAs); absent for a flag. */
  arg?: string;
  /** The option may be given several times (its values are kept in order). */
  repeated?: boolean;
  description: string;
}

export interface ParsedOptions {
  has(name: string): boolean;
  value(name: string): string | undefined;
  values(name: string): string[];
  /** Words that are not options, in order (a tool's sub-command, such as `describe`). */
  positional: string[];
}

/** Raised by parseOptions; the tool prints `message` and its usage. */
export class OptionError extends Error {}

export function parseOptions(args: readonly string[], specs: readonly OptionSpec[]): ParsedOptions {
  const seen = new Map<string, string[]>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (!word.startsWith('-') || word === '-') {
      positional.push(word);
      continue;
    }
    const body = word.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq < 0 ? body : body.slice(0, eq);
    const spec = findSpec(name, specs);
    let value: string | undefined;
    if (spec.arg !== undefined) {
      if (eq >= 0) value = body.slice(eq + 1);
      else if (i + 1 < args.length) value = args[++i];
      else throw new OptionError(`Option ['${spec.name}'] requires an argument`);
    } else if (eq >= 0) throw new OptionError(`Option ['${spec.name}'] does not accept an argument`);
    const list = seen.get(spec.name) ?? [];
    if (value !== undefined) list.push(value);
    seen.set(spec.name, list);
  }
  return {
    has: (name) => seen.has(name),
    value: (name) => seen.get(name)?.[0],
    values: (name) => seen.get(name) ?? [],
    positional,
  };
}

function findSpec(name: string, specs: readonly OptionSpec[]): OptionSpec {
  const exact = specs.find((s) => s.name === name);
  if (exact) return exact;
  const prefixed = name === '' ? [] : specs.filter((s) => s.name.startsWith(name));
  if (prefixed.length === 1) return prefixed[0]!;
  if (prefixed.length > 1)
    throw new OptionError(
      `Option '${name}' is ambiguous; possibilities: ${prefixed.map((s) => `'${s.name}'`).join(' ')}`,
    );
  throw new OptionError(`'${name}' is not a recognized option`);
}

/**
 * joptsimple's help table (BuiltinHelpFormatter, 80 columns): the options sorted by name, each
 * description wrapped beside its option, an option too long for its column on a line of its own.
 */
export function usageTable(specs: readonly OptionSpec[]): string {
  const rows = [...specs]
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map((s) => [`--${s.name}${s.arg ? ` <${s.arg}>` : ''}`, s.description] as const);
  const width = Math.min(38, Math.max('Option'.length, ...rows.map((r) => r[0].length))) + 1;
  const out: string[] = [];
  const add = (left: string, text: string) => {
    const lines = wrap(text, 80 - width);
    if (left.length >= width) {
      out.push(left);
      left = '';
    }
    lines.forEach((l, i) => out.push(`${(i === 0 ? left : '').padEnd(width)}${l}`.trimEnd()));
  };
  add('Option', 'Description');
  add('------', '-----------');
  for (const [left, text] of rows) add(left, text);
  return out.join('\n');
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines;
}
