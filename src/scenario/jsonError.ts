// Where a scenario file stops being JSON, as a line and column a teacher can go to. Node 20's
// JSON.parse names the offending token but not always its position, so this scans for it.

export interface JsonErrorLocation {
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units. */
  column: number;
}

/** The first place `text` breaks RFC 8259 JSON, or null when it is valid. */
export function locateJsonError(text: string): JsonErrorLocation | null {
  const offset = jsonErrorOffset(text);
  if (offset < 0) return null;
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before.at(-1) ?? '').length + 1 };
}

const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;

function jsonErrorOffset(text: string): number {
  let i = 0;
  // Thrown to unwind the descent: the scan stops at the first error.
  class Stop {}
  const fail = (): never => {
    throw new Stop();
  };
  const skipWhitespace = () => {
    while (i < text.length && ' \t\n\r'.includes(text.charAt(i))) i++;
  };
  const expect = (char: string) => {
    skipWhitespace();
    if (text[i] !== char) fail();
    i++;
  };
  const matchSticky = (pattern: RegExp) => {
    pattern.lastIndex = i;
    if (!pattern.test(text)) fail();
    i = pattern.lastIndex;
  };

  function string(): void {
    expect('"');
    for (;;) {
      if (i >= text.length) fail();
      const code = text.charCodeAt(i);
      if (code === 0x22) break;
      if (code < 0x20) fail();
      i++;
      if (code !== 0x5c) continue;
      if (i < text.length && '"\\/bfnrt'.includes(text.charAt(i))) i++;
      else if (text[i] === 'u') {
        i++;
        matchSticky(HEX4);
      } else fail();
    }
    i++;
  }

  function list(close: string, item: () => void): void {
    i++;
    skipWhitespace();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      item();
      skipWhitespace();
      if (text[i] === close) break;
      expect(',');
    }
    i++;
  }

  function value(): void {
    skipWhitespace();
    const char = text[i];
    if (char === '{') {
      list('}', () => {
        skipWhitespace();
        string();
        expect(':');
        value();
      });
    } else if (char === '[') {
      list(']', value);
    } else if (char === '"') {
      string();
    } else {
      const word = ['true', 'false', 'null'].find((w) => text.startsWith(w, i));
      if (word) i += word.length;
      else matchSticky(NUMBER);
    }
  }

  try {
    value();
    skipWhitespace();
    if (i < text.length) fail();
    return -1;
  } catch (error) {
    if (error instanceof Stop) return i;
    throw error;
  }
}
