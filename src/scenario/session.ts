// A session is everything needed to reproduce what a learner sees: the scenario (seed included),
// the actions they took with their virtual times, and the moment they are looking at. It travels
// in a link (#s=...) or a JSON file; decoding is strict and lists every problem (docs/sharing.md).
import { deflateSync, inflateSync, strFromU8, strToU8 } from 'fflate';
import {
  checkShape,
  createSimulation,
  ENGINE_VERSION,
  keyPath,
  LIMITS,
  validateCommand,
  validateScenario,
} from '../sim';
import type { Simulation } from '../sim/types';
import type { Command, Scenario, ScenarioIssue } from '../sim/types';

// What a session's reader (the worker, the lessons runner) needs of the engine's types.
export type { Simulation };
export type { Snapshot, SimEvent, PartitionView, ProducerView, NodeView } from '../sim/types';

/** The session format this build writes and reads. A link of a newer format is refused, never guessed. */
export const SESSION_FORMAT = 1;
/** The key of the URL fragment that carries a session: `#s=...`. */
export const LINK_KEY = 's';
/** Bytes of session JSON a link may inflate to: a guard against a crafted link that expands hugely. */
export const MAX_SESSION_JSON_BYTES = 1 << 20;
/**
 * The furthest position a session may ask for: a day of virtual time. Replaying costs wall time
 * in proportion (the default cluster replays an hour in about 10 s here), and the worker replays
 * in slices the page can cancel, but a link must not be able to ask for years.
 */
export const MAX_SESSION_POSITION_MS = 24 * 60 * 60 * 1000;
/** The deepest nesting of objects and arrays a session may have (its deepest field is about 8 levels down). */
export const MAX_SESSION_DEPTH = 32;
/** The most records a session's `produce` actions may write in all: each is kept in the ledger. */
export const MAX_SESSION_PRODUCED_RECORDS = 1_000_000;

/** One user action, performed at `atMs` of virtual time. */
export interface SessionAction {
  atMs: number;
  command: Command;
}

export interface Session {
  format: typeof SESSION_FORMAT;
  /** ENGINE_VERSION of the build that wrote the session: another engine may replay it differently. */
  engineVersion: string;
  scenario: Scenario;
  /** In virtual-time order; actions at the same time keep their order. */
  actions: SessionAction[];
  /** The virtual time the learner was looking at. */
  positionMs: number;
  /** sim.stateHash() at positionMs, when the writer knew it. */
  stateHash?: string;
}

export type DecodeResult = { ok: true; session: Session } | { ok: false; issues: ScenarioIssue[] };

const LINK_PATH = 'link';

// ---- links -------------------------------------------------------------------------------------

/**
 * The fragment payload for a session: `<format>.<crc32 of the JSON>.<deflate + base64url>`. The
 * format comes first and in clear, so that a newer link is recognised before anything is inflated.
 */
export function encodeSession(session: Session): string {
  const json = strToU8(JSON.stringify(session));
  return `${SESSION_FORMAT}.${crc32Hex(json)}.${toBase64Url(deflateSync(json, { level: 9 }))}`;
}

/** `#s=<payload>`, ready to append to the page's address. */
export function sessionFragment(session: Session): string {
  return `#${LINK_KEY}=${encodeSession(session)}`;
}

/** The session payload of a URL or fragment (`#s=...`), or null when it carries none. */
export function sessionPayloadOf(urlOrHash: string): string | null {
  const hashAt = urlOrHash.indexOf('#');
  const fragment = hashAt >= 0 ? urlOrHash.slice(hashAt + 1) : urlOrHash;
  for (const part of fragment.split('&')) {
    if (part.startsWith(`${LINK_KEY}=`)) return part.slice(LINK_KEY.length + 1);
  }
  return null;
}

/** Decodes a link payload (what follows `#s=`), listing every problem; never throws. */
export function decodeSession(payload: string): DecodeResult {
  const issues: ScenarioIssue[] = [];
  const add = (path: string, message: string) => issues.push({ path, message });

  if (payload.length > LIMITS.maxUrlLength) {
    add(
      LINK_PATH,
      `the link is ${payload.length} characters long; the limit is ${LIMITS.maxUrlLength} (share a JSON file instead)`,
    );
    return { ok: false, issues };
  }
  const parts = payload.split('.');
  const [head = '', checksum = '', data = ''] = parts;
  const format = Number(head);
  if (head === '' || !/^[0-9]+$/.test(head)) {
    add(`${LINK_PATH}.format`, 'missing: a session link starts with its format version, e.g. "1."');
    return { ok: false, issues };
  }
  if (format > SESSION_FORMAT) {
    add(
      `${LINK_PATH}.format`,
      `session format ${format} is newer than this simulator understands (${SESSION_FORMAT}); open the link in a newer version of the app`,
    );
    return { ok: false, issues };
  }
  if (format !== SESSION_FORMAT) add(`${LINK_PATH}.format`, `must be ${SESSION_FORMAT}, got ${format}`);
  if (parts.length < 3) {
    add(LINK_PATH, 'the link is truncated: it lacks its checksum or its data');
    return { ok: false, issues };
  }
  if (parts.length > 3)
    add(LINK_PATH, `the link has ${parts.length} dot-separated parts; a session link has 3`);
  if (!/^[0-9a-f]{8}$/.test(checksum)) add(`${LINK_PATH}.checksum`, 'must be 8 hexadecimal digits');
  if (data === '') {
    add(`${LINK_PATH}.data`, 'the link is truncated: it has no data after the checksum');
    return { ok: false, issues };
  }
  if (!/^[A-Za-z0-9_-]+$/.test(data)) {
    add(`${LINK_PATH}.data`, 'contains characters that are not base64url (A-Z, a-z, 0-9, "-" and "_")');
    return { ok: false, issues };
  }
  if (data.length % 4 === 1) {
    add(`${LINK_PATH}.data`, 'the link is truncated: its data ends in the middle of a character group');
    return { ok: false, issues };
  }
  let json: Uint8Array;
  try {
    const out = new Uint8Array(MAX_SESSION_JSON_BYTES + 1);
    json = inflateSync(fromBase64Url(data), { out });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    add(
      `${LINK_PATH}.data`,
      /EOF|end/i.test(why)
        ? 'the link is truncated: its compressed data ends early (was it cut when copied?)'
        : `the compressed data is corrupted (${why})`,
    );
    return { ok: false, issues };
  }
  if (json.length > MAX_SESSION_JSON_BYTES) {
    add(`${LINK_PATH}.data`, `the session expands to more than ${MAX_SESSION_JSON_BYTES} bytes; the limit`);
    return { ok: false, issues };
  }
  if (/^[0-9a-f]{8}$/.test(checksum) && crc32Hex(json) !== checksum) {
    add(
      `${LINK_PATH}.checksum`,
      `checksum mismatch (the link says ${checksum}, its data gives ${crc32Hex(json)}): the link was altered or damaged`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(strFromU8(json));
  } catch {
    add(`${LINK_PATH}.data`, 'the data is not valid JSON');
    return { ok: false, issues };
  }
  issues.push(...validateSession(value));
  return issues.length > 0 ? { ok: false, issues } : { ok: true, session: value as Session };
}

// ---- files -------------------------------------------------------------------------------------

/** The session as a JSON file, for export. */
export function sessionToJson(session: Session): string {
  return `${JSON.stringify(session, null, 2)}\n`;
}

/**
 * A session from an imported JSON file: either a session, or a bare scenario (which becomes a
 * session with no actions). Validated as strictly as a link.
 */
export function sessionFromJson(text: string): DecodeResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      issues: [
        { path: 'file', message: `not valid JSON: ${error instanceof Error ? error.message : error}` },
      ],
    };
  }
  if (isObject(value) && value.format === undefined && value.version !== undefined) {
    const deep = tooDeep(value, MAX_SESSION_DEPTH);
    if (deep !== null)
      return {
        ok: false,
        issues: [
          {
            path: `scenario.${deep}`,
            message: `nested more than ${MAX_SESSION_DEPTH} levels deep; a scenario never is`,
          },
        ],
      };
    const scenarioIssues = validateScenario(value).map((i) => ({ ...i, path: `scenario.${i.path}` }));
    if (scenarioIssues.length > 0) return { ok: false, issues: scenarioIssues };
    return { ok: true, session: newSession(value as unknown as Scenario) };
  }
  const issues = validateSession(value);
  return issues.length > 0 ? { ok: false, issues } : { ok: true, session: value as Session };
}

// ---- validation --------------------------------------------------------------------------------

/** Every problem of a decoded session value; [] when it is valid. */
export function validateSession(value: unknown): ScenarioIssue[] {
  const issues: ScenarioIssue[] = [];
  const add = (path: string, message: string) => issues.push({ path, message });
  if (!isObject(value)) {
    add('(root)', 'a session must be a JSON object');
    return issues;
  }
  // Checked first, without recursion: the validators below walk the value recursively.
  const deep = tooDeep(value, MAX_SESSION_DEPTH);
  if (deep !== null) {
    add(deep, `nested more than ${MAX_SESSION_DEPTH} levels deep; a session never is`);
    return issues;
  }
  const known = ['format', 'engineVersion', 'scenario', 'actions', 'positionMs', 'stateHash'];
  for (const key of Object.keys(value)) if (!known.includes(key)) add(keyPath('', key), 'unknown field');

  if (value.format === undefined)
    add('format', `missing; this simulator reads session format ${SESSION_FORMAT}`);
  else if (typeof value.format === 'number' && value.format > SESSION_FORMAT) {
    add(
      'format',
      `session format ${value.format} is newer than this simulator understands (${SESSION_FORMAT})`,
    );
    return issues;
  } else if (value.format !== SESSION_FORMAT) add('format', `must be ${SESSION_FORMAT}`);

  if (typeof value.engineVersion !== 'string' || value.engineVersion === '')
    add('engineVersion', 'must be the engine version that wrote the session, e.g. "0.5.0"');
  if (value.stateHash !== undefined && (typeof value.stateHash !== 'string' || value.stateHash === ''))
    add('stateHash', 'must be a non-empty string');

  if (value.scenario === undefined) add('scenario', 'missing');
  else for (const i of validateScenario(value.scenario)) add(`scenario.${i.path}`, i.message);

  const position = value.positionMs;
  const positionOk = isInt(position) && position >= 0;
  if (position === undefined) add('positionMs', 'missing');
  else if (!positionOk) add('positionMs', 'must be a non-negative integer (virtual milliseconds)');
  else if ((position as number) > MAX_SESSION_POSITION_MS)
    add(
      'positionMs',
      `${position} ms is more than a day of virtual time; the limit is ${MAX_SESSION_POSITION_MS} ms (24 h)`,
    );

  const actions = value.actions;
  if (actions === undefined) add('actions', 'missing (use [] for none)');
  else if (!Array.isArray(actions)) add('actions', 'must be an array of {"atMs", "command"}');
  else {
    if (actions.length > LIMITS.maxActions)
      add('actions', `${actions.length} actions; the limit is ${LIMITS.maxActions}`);
    let previous = 0;
    actions.forEach((action, i) => {
      const path = `actions[${i}]`;
      if (!isObject(action))
        return add(path, 'an action must be an object like {"atMs": 5000, "command": {...}}');
      for (const key of Object.keys(action))
        if (key !== 'atMs' && key !== 'command') add(keyPath(path, key), 'unknown field');
      const atMs = action.atMs;
      if (!isInt(atMs) || atMs < 0) add(`${path}.atMs`, 'must be a non-negative integer');
      else {
        if (atMs < previous)
          add(
            `${path}.atMs`,
            `${atMs} is before the previous action (${previous}); actions are in time order`,
          );
        else previous = atMs;
        if (positionOk && atMs > (position as number))
          add(`${path}.atMs`, `${atMs} is after the session's position (${position})`);
      }
      if (action.command === undefined) add(`${path}.command`, 'missing');
      else issues.push(...validateCommand(action.command, `${path}.command`));
    });
    const produced = producedRecords(actions);
    if (produced > MAX_SESSION_PRODUCED_RECORDS)
      add(
        'actions',
        `its produce actions write ${produced} records; the limit is ${MAX_SESSION_PRODUCED_RECORDS}`,
      );
  }
  return issues;
}

/** The records a session's `produce` actions write in all (`count`, 1 when omitted). */
export function producedRecords(actions: readonly unknown[]): number {
  let total = 0;
  for (const action of actions) {
    const command = isObject(action) ? action.command : undefined;
    if (!isObject(command) || command.type !== 'produce') continue;
    total += isInt(command.count) && command.count > 0 ? command.count : 1;
  }
  return total;
}

// ---- replay ------------------------------------------------------------------------------------

/** A session of `scenario` at time 0, with no actions, written by this engine. */
export function newSession(scenario: Scenario): Session {
  return { format: SESSION_FORMAT, engineVersion: ENGINE_VERSION, scenario, actions: [], positionMs: 0 };
}

export interface Replay {
  sim: Simulation;
  /** Actions the engine refused while replaying (with their index), which a faithful session never has. */
  refused: { index: number; error: string }[];
}

/**
 * Rebuilds the simulation a session describes: createSimulation(scenario), each action applied at
 * its time by advancing to it, then advanced to the position. Throws a ScenarioError for a bad scenario.
 */
export function replaySession(session: Session, upToMs = session.positionMs): Replay {
  const sim = createSimulation(session.scenario);
  const refused: Replay['refused'] = [];
  session.actions.forEach((action, index) => {
    if (action.atMs > upToMs) return;
    if (action.atMs > sim.nowMs) sim.advance(action.atMs - sim.nowMs);
    const result = sim.apply(action.command);
    if (!result.ok) refused.push({ index, error: result.error });
  });
  if (upToMs > sim.nowMs) sim.advance(upToMs - sim.nowMs);
  return { sim, refused };
}

export type HashCheck =
  | { status: 'match'; stateHash: string }
  | { status: 'no-hash'; stateHash: string }
  | { status: 'hash-differs'; stateHash: string; expected: string; sameEngine: boolean }
  | { status: 'other-engine'; stateHash: string; engineVersion: string };

/**
 * Whether the replayed state is the one the writer saw. A different engine version is said
 * plainly, since its rules may have changed; a differing hash with the same engine is a bug.
 */
export function checkHash(session: Session, stateHash: string): HashCheck {
  if (session.stateHash === undefined) return { status: 'no-hash', stateHash };
  if (session.stateHash === stateHash) return { status: 'match', stateHash };
  if (session.engineVersion !== ENGINE_VERSION)
    return { status: 'other-engine', stateHash, engineVersion: session.engineVersion };
  return { status: 'hash-differs', stateHash, expected: session.stateHash, sameEngine: true };
}

/** One sentence for the page: does the state match the link? */
export function describeHashCheck(check: HashCheck, source: 'link' | 'file' = 'link'): string {
  switch (check.status) {
    case 'match':
      return `State hash ${check.stateHash} matches the ${source}.`;
    case 'no-hash':
      return `The ${source} carries no state hash; this state's hash is ${check.stateHash}.`;
    case 'other-engine':
      return `This ${source} was made by engine ${check.engineVersion}; this is engine ${ENGINE_VERSION}, and the state differs (hash ${check.stateHash}).`;
    case 'hash-differs':
      return `The state hash differs: the ${source} says ${check.expected}, the replay gives ${check.stateHash}.`;
  }
}

// ---- bytes -------------------------------------------------------------------------------------

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const BASE64URL_INDEX = new Map([...BASE64URL].map((c, i) => [c, i]));

export function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += BASE64URL.charAt((n >> 18) & 63) + BASE64URL.charAt((n >> 12) & 63);
    if (i + 1 < bytes.length) out += BASE64URL.charAt((n >> 6) & 63);
    if (i + 2 < bytes.length) out += BASE64URL.charAt(n & 63);
  }
  return out;
}

export function fromBase64Url(text: string): Uint8Array {
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    const [a = 0, b = 0, c = 0, d = 0] = [0, 1, 2, 3].map(
      (k) => BASE64URL_INDEX.get(text.charAt(i + k)) ?? 0,
    );
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = (n >> 16) & 255;
    if (i + 2 < text.length) out[o++] = (n >> 8) & 255;
    if (i + 3 < text.length) out[o++] = n & 255;
  }
  return out.subarray(0, o);
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (as in zip and PNG), as 8 hexadecimal digits. */
export function crc32Hex(bytes: Uint8Array): string {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 255]! ^ (crc >>> 8); // a byte indexes 256 slots
  return ((crc ^ 0xffffffff) >>> 0).toString(16).padStart(8, '0');
}

export { keyPath };

/** The path of the first value nested deeper than `maxDepth`, or null; iterative, so any depth is safe. */
export function tooDeep(value: unknown, maxDepth: number): string | null {
  return checkShape(value, { maxDepth, maxValues: Infinity, what: 'a session' })?.path ?? null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v);
}
