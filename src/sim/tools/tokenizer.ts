// The shell's word splitting for one command line (POSIX sh, "Token Recognition" and "Quoting"):
// words split on blanks; single quotes keep everything literally; double quotes keep blanks and let
// a backslash escape `"`, `\`, `$` and a backtick; an unquoted backslash escapes the next character.
// One redirection, an unquoted `>` before a file name, sends the line's output to that file (the
// simulated admin host's files, model/world.ts `files`). No variables, globs or pipes.

export interface Split {
  words: string[];
  /** The file after an unquoted `>`, when the line has one. */
  redirect?: string;
}

/** The words of `line`, or an error when a quote is left open. */
export function tokenize(line: string): Split | { error: string } {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let redirectNext = false;
  let redirect: string | undefined;
  const finishWord = () => {
    if (!inWord) return;
    if (redirectNext) {
      redirect = word;
      redirectNext = false;
    } else words.push(word);
  };
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === '>') {
      finishWord();
      word = '';
      inWord = false;
      if (redirectNext) return { error: "syntax error near unexpected token `>'" };
      if (redirect !== undefined) return { error: 'one redirection a line, here' };
      redirectNext = true;
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
  if (redirectNext) return { error: "syntax error near unexpected token `newline'" };
  return redirect === undefined ? { words } : { words, redirect };
}
