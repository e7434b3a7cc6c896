// What a user typed, as messages and paths show it, and maps keyed by it. A message quotes at
// most a short prefix of a value (a megabyte topic name must not come back as a megabyte
// message) and names the type of a value that is neither a string nor a number, instead of
// `[object Object]`. A map keyed by a user's string (client ids, principals, group ids, topic
// names) has no prototype, so `constructor` or `__proto__` is a name like any other.

/** Characters of a user's value that a message or a path quotes; longer ones end in `…`. */
export const MAX_QUOTED_CHARS = 40;

/** At most `max` characters of `text` (never half a surrogate pair), then `…` when cut. */
export function shortText(text: string, max: number = MAX_QUOTED_CHARS): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, end)}…`;
}

/** The kind of a value that is not a string or a number: `an object`, `an array`, `null`, `true`. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'boolean') return String(value);
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A value in a sentence: a string JSON-quoted (`"orders"`, cut short), a number as it is, else its kind. */
export function quote(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(shortText(value));
  if (typeof value === 'number') return String(value);
  return kindOf(value);
}

/**
 * A value as Kafka's messages show it (`Invalid value foo for configuration acks`): a string bare
 * and cut short, a number, a boolean or null as it is, else its kind in parentheses (`(an object)`).
 */
export function shown(value: unknown): string {
  if (typeof value === 'string') return shortText(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return `(${kindOf(value)})`;
}

/**
 * The path of a field: `parent.key`, or `parent["key"]` for a key that is not a plain name (empty,
 * spaces, symbols), quoting at most MAX_QUOTED_CHARS characters of it. Never empty.
 */
export function keyPath(parent: string, key: string): string {
  if (/^[A-Za-z_$][\w$.-]*$/.test(key) && key.length <= MAX_QUOTED_CHARS)
    return parent ? `${parent}.${key}` : key;
  return `${parent}[${JSON.stringify(shortText(key))}]`;
}

/** Why a value is too deep or too big to read (with the path of the first such place), or null. */
export interface ShapeProblem {
  path: string;
  message: string;
}

/**
 * Whether `value` nests deeper than `maxDepth` levels or holds more than `maxValues` values in
 * all; iterative, so any depth is safe to check (the validators after it recurse).
 */
export function checkShape(
  value: unknown,
  { maxDepth, maxValues, what }: { maxDepth: number; maxValues: number; what: string },
  root = '',
): ShapeProblem | null {
  // Each entry keeps its parent and key; the path is spelled only for the value that fails (this
  // runs on every command, the produce commands of a load included).
  interface Entry {
    value: unknown;
    parent: Entry | null;
    key: string | number;
    depth: number;
  }
  const pathOf = (e: Entry): string => {
    const keys: (string | number)[] = [];
    for (let at: Entry | null = e; at?.parent; at = at.parent) keys.push(at.key);
    let path = root;
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      path = typeof key === 'number' ? `${path}[${key}]` : keyPath(path, key);
    }
    return path;
  };
  // A flat object (a produce command: every field a string, number, boolean or null) is answered
  // without the walk, which makes an entry per field.
  if (maxDepth >= 1 && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    let fields = 0;
    let flat = true;
    for (const key in value) {
      if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
      const v = (value as Record<string, unknown>)[key];
      if (typeof v === 'object' && v !== null) {
        flat = false;
        break;
      }
      fields++;
    }
    if (flat && 1 + fields <= maxValues) return null;
  }
  const stack: Entry[] = [{ value, parent: null, key: '', depth: 0 }];
  let count = 0;
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const v = entry.value;
    if (++count > maxValues)
      return {
        path: root || '(root)',
        message: `holds more than ${maxValues} values in all; ${what} never does`,
      };
    if (typeof v !== 'object' || v === null) continue;
    const depth = entry.depth;
    if (depth >= maxDepth)
      return {
        path: pathOf(entry) || '(root)',
        message: `nested more than ${maxDepth} levels deep; ${what} never is`,
      };
    if (Array.isArray(v))
      for (let i = 0; i < v.length; i++)
        stack.push({ value: v[i] as unknown, parent: entry, key: i, depth: depth + 1 });
    else
      for (const key in v)
        if (Object.prototype.hasOwnProperty.call(v, key))
          stack.push({ value: (v as Record<string, unknown>)[key], parent: entry, key, depth: depth + 1 });
  }
  return null;
}

/** An empty map from a user's strings to values, without a prototype (JSON.stringify shows it as `{}`). */
export function dictionary<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** A copy of `from` without a prototype, the same keys in the same order. */
export function dictionaryOf<T>(from: Readonly<Record<string, T>> | undefined): Record<string, T> {
  const out = dictionary<T>();
  if (from) for (const [key, value] of Object.entries(from)) out[key] = value;
  return out;
}

/**
 * `map[key]` if it is the map's own entry, else undefined: a map that went through structuredClone
 * (a checkpoint) has a prototype again, and `map["constructor"]` must not find Object.
 */
export function own<T>(map: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(map, key) ? map[key] : undefined;
}
