// The shell's word splitting for one command line (POSIX sh, "Token Recognition" and "Quoting"):
// words split on blanks; single quotes keep everything literally; double quotes keep blanks and let
// a backslash escape `"`, `\`, `$` and a backtick; an unquoted backslash escapes the next character.
// One redirection, an unquoted `>` before a file name, sends the line's output to that file (the
// simulated admin host's files, model/world.ts `files`); an unquoted `<` before a file name feeds
// it to the command's standard input, and `a | b` feeds a's output to b. No variables or globs.

export interface Split {
  /** The words of the last command of the line (the only one without a pipe). */
  words: string[];
  /** The file after an unquoted `>`, when the line has one. */
  redirect?: string;
  /** The file after an unquoted `<`, when the line has one. */
  input?: string;
  /** The commands before the last, in order, when the line is a pipeline (`echo a | b`). */
  upstream?: string[][];
}

/** The words of `line`, or an error when a quote is left open. */
export function tokenize(line: string): Split | { error: string } {
  let words: string[] = [];
  const upstream: string[][] = [];
  let word = '';
  let inWord = false;
  let target: '>' | '<' | null = null;
  let redirect: string | undefined;
  let input: string | undefined;
  const finishWord = () => {
    if (!inWord) return;
    if (target === '>') redirect = word;
    else if (target === '<') input = word;
    else words.push(word);
    target = null;
  };
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === '>' || c === '<') {
      finishWord();
      word = '';
      inWord = false;
      if (target) return { error: `syntax error near unexpected token \`${c}'` };
      if (c === '>' ? redirect !== undefined : input !== undefined || upstream.length > 0)
        return { error: `one ${c === '>' ? 'output' : 'input'} redirection a line, here` };
      target = c;
      i++;
    } else if (c === '|') {
      finishWord();
      word = '';
      inWord = false;
      if (target || words.length === 0) return { error: "syntax error near unexpected token `|'" };
      if (redirect !== undefined || input !== undefined)
        return { error: 'a redirection goes at the end of a pipeline, here' };
      upstream.push(words);
      words = [];
      i++;
    } else if (c === ' ' || c === '\t' || c === '\n') {
      finishWord();
      word = '';
      inWord = false;
      i++;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return { error: "unexpected EOF while looking for matching `''" };
      word += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      inWord = true;
      i++;
      for (;;) {
        if (i >= line.length) return { error: 'unexpected EOF while looking for matching `"\'' };
        const d = line[i]!;
        if (d === '"') break;
        if (d === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) {
          word += line[i + 1];
          i += 2;
        } else {
          word += d;
          i++;
        }
      }
      i++;
    } else if (c === '\\') {
      if (i + 1 < line.length) word += line[i + 1];
      inWord = true;
      i += 2;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  finishWord();
  if (target || (upstream.length > 0 && words.length === 0))
    return { error: "syntax error near unexpected token `newline'" };
  const split: Split = { words };
  if (redirect !== undefined) split.redirect = redirect;
  if (input !== undefined) split.input = input;
  if (upstream.length) split.upstream = upstream;
  return split;
}
