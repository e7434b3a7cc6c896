// What the forms read from their text fields: config values and entries, and fresh client ids.
import type { ConfigValue } from '../../sim/types';

/** A config value as typed: true/false as booleans, numbers as numbers, else the text. */
export function parseConfigValue(text: string): ConfigValue {
  const trimmed = text.trim();
  if (trimmed === 'true' || trimmed === 'false') return trimmed === 'true';
  if (/^-?\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  return trimmed;
}

/**
 * "key=value" pairs, one a line or separated by commas; an empty value ("key=") deletes the
 * override (incrementalAlterConfigs DELETE).
 */
export function parseConfigEntries(
  text: string,
): { ok: true; configs: Record<string, ConfigValue | null> } | { ok: false; error: string } {
  const configs: Record<string, ConfigValue | null> = {};
  const parts = text
    .split(/[\n,]/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.length === 0)
    return { ok: false, error: 'Enter at least one config as key=value, e.g. min.insync.replicas=2' };
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (eq <= 0) return { ok: false, error: `"${part}" is not key=value, e.g. min.insync.replicas=2` };
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1);
    configs[key] = value.trim() === '' ? null : parseConfigValue(value);
  }
  return { ok: true, configs };
}

/** The next id of the form `${prefix}${n}` that no existing id uses. */
export function nextFreeId(prefix: string, used: readonly string[]): string {
  const taken = new Set(used);
  let n = 1;
  while (taken.has(`${prefix}${n}`)) n++;
  return `${prefix}${n}`;
}
