// The few shell commands a Kafka operator types around the tools, on the simulated admin host:
// `echo` (with a redirection, to write a JSON file a tool reads), `cat`, `ls` and `rm`. Files live
// in the World (model/world.ts `files`), so a line that writes one is recorded and replayed like any
// other change, and a rewind takes the file back with the cluster.

import type { World } from '../model/world';
import type { ToolResult } from './tool';

/** Bounds of the admin host's disk: a line cannot grow the world without limit. */
export const MAX_FILES = 32;
export const MAX_FILE_BYTES = 1_000_000;

export const SHELL_COMMANDS = ['echo', 'cat', 'ls', 'rm'] as const;

export function readFile(w: World, path: string): string | undefined {
  return w.files?.get(path);
}

/** `> path`: the text replaces the file; an error in sh's words, or null. */
export function writeFile(w: World, path: string, text: string): string | null {
  if (path === '') return 'sh: : No such file or directory';
  if (text.length > MAX_FILE_BYTES) return `sh: ${path}: File too large`;
  const files = (w.files ??= new Map());
  if (!files.has(path) && files.size >= MAX_FILES) return `sh: ${path}: No space left on device`;
  files.set(path, text);
  return null;
}

const done = (output: string, exitCode = 0, changed = false): ToolResult => ({ output, exitCode, changed });

/** Runs a shell command of SHELL_COMMANDS, or returns undefined for another word. */
export function runShell(
  name: string,
  args: readonly string[],
  w: World,
  stdin?: string,
): ToolResult | undefined {
  switch (name) {
    case 'echo': {
      // `echo -e` reads \n and \t (bash's builtin), so one line can write several records.
      if (args[0] !== '-e') return done(args.join(' '));
      return done(
        args
          .slice(1)
          .join(' ')
          .replace(/\\([nt\\])/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : '\\')),
      );
    }
    case 'cat': {
      // With no file, cat copies its standard input (the pipe's or the `<` file's text).
      if (args.length === 0) return done((stdin ?? '').replace(/\n$/, ''));
      const parts: string[] = [];
      const errors: string[] = [];
      for (const path of args) {
        const text = readFile(w, path);
        if (text === undefined) errors.push(`cat: ${path}: No such file or directory`);
        else parts.push(text.replace(/\n$/, ''));
      }
      return done([...parts, ...errors].join('\n'), errors.length ? 1 : 0);
    }
    case 'ls': {
      // Options (-l, -1, ...) change only the layout; names are listed one a line.
      const names = args.filter((a) => !a.startsWith('-'));
      if (names.length === 0) return done([...(w.files?.keys() ?? [])].sort().join('\n'));
      return done(
        names
          .map((p) => (w.files?.has(p) ? p : `ls: cannot access '${p}': No such file or directory`))
          .join('\n'),
        names.every((p) => w.files?.has(p)) ? 0 : 2,
      );
    }
    case 'rm': {
      if (args.length === 0) return done('rm: missing operand', 1);
      const missing = args.filter((p) => !w.files?.has(p));
      for (const p of args) w.files?.delete(p);
      return done(
        missing.map((p) => `rm: cannot remove '${p}': No such file or directory`).join('\n'),
        missing.length ? 1 : 0,
        missing.length < args.length,
      );
    }
    default:
      return undefined;
  }
}
