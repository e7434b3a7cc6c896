// Kafka errors on form fields: a refused command's lines, each placed next to the field it
// concerns with Kafka's error name (INVALID_REPLICATION_FACTOR, INVALID_CONFIG, ...).

/**
 * A refusal placed next to the field it concerns. `field` is the command's field ("name",
 * "partitions", "replicationFactor", "topic", "partition", "resourceName", ...), or
 * "config:<key>" for one config entry, or null for the form as a whole.
 */
export interface FieldError {
  field: string | null;
  /** Kafka's error name (e.g. INVALID_REPLICATION_FACTOR), when the error has or implies one. */
  code: string | null;
  /** The explanation without the code or path prefix. */
  message: string;
}

const CODE_FIELDS: Record<string, string> = {
  INVALID_REPLICATION_FACTOR: 'replicationFactor',
  INVALID_PARTITIONS: 'partitions',
  INVALID_TOPIC_EXCEPTION: 'name',
  TOPIC_ALREADY_EXISTS: 'name',
  UNKNOWN_TOPIC_OR_PARTITION: 'topic',
  INVALID_REQUIRED_ACKS: 'acks',
};

const configKeyIn = (text: string): string | null =>
  /for configuration ([\w.-]+)/.exec(text)?.[1] ??
  /config name:? ([\w.-]+)/i.exec(text)?.[1] ??
  /'([\w.-]+)' (?:is not|cannot)/.exec(text)?.[1] ??
  null;

/** The Kafka error name a validation message of this field implies. */
function impliedCode(field: string, message: string): string | null {
  if (field.startsWith('config:')) return 'INVALID_CONFIG';
  if (field === 'name')
    return /already exists|collides/.test(message) ? 'TOPIC_ALREADY_EXISTS' : 'INVALID_TOPIC_EXCEPTION';
  if (field === 'replicationFactor') return 'INVALID_REPLICATION_FACTOR';
  if (field === 'partitions') return 'INVALID_PARTITIONS';
  if (/^no topic/.test(message)) return 'UNKNOWN_TOPIC_OR_PARTITION';
  return null;
}

function fieldErrorOfLine(line: string): FieldError {
  // A validation issue: "command.config.min.insync.replicas: Invalid value ..." (config keys hold dots).
  const issue = /^command((?:\.|\[)[^:\s]*): (.*)$/s.exec(line);
  if (issue) {
    const [, at = '', message = ''] = issue;
    const [head = '', ...rest] = at.replace(/^\./, '').split('.');
    const root = head.replace(/\[.*$/, '');
    const field =
      (root === 'config' || root === 'configs') && rest.length ? `config:${rest.join('.')}` : root;
    return { field, code: impliedCode(field, message), message };
  }
  const coded = /^([A-Z][A-Z_]+[A-Z]): (.*)$/s.exec(line);
  if (coded) {
    const [, code = '', message = ''] = coded;
    if (code === 'INVALID_CONFIG' || code === 'POLICY_VIOLATION' || code === 'INVALID_REQUEST') {
      const key = configKeyIn(message);
      return { field: key ? `config:${key}` : null, code, message };
    }
    return { field: CODE_FIELDS[code] ?? null, code, message };
  }
  const key = configKeyIn(line);
  if (key) return { field: `config:${key}`, code: 'INVALID_CONFIG', message: line };
  if (/^Topic name|^Topic '/.test(line))
    return { field: 'name', code: impliedCode('name', line), message: line };
  // The engine's refusals of client commands name the client first: "producer p is already running".
  const client = /^(producer|consumer) \S+ /.exec(line);
  if (client) return { field: `${client[1]}Id`, code: null, message: line };
  return { field: null, code: null, message: line };
}

/** A refusal's lines, trimmed, without empty ones. */
export function refusalLines(error: string): string[] {
  // Validation lists its issues one a line or joined by "; ", each starting with its path.
  return error
    .split(/\n|;\s+(?=command[.[])/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** Each line of a refusal, with the field it concerns and Kafka's error name. */
export function fieldErrors(error: string): FieldError[] {
  return refusalLines(error).map(fieldErrorOfLine);
}

export const formatFieldError = (error: FieldError): string =>
  error.code ? `${error.code}: ${error.message}` : error.message;

/** The refusal's lines grouped by the form field they belong to (`aliases` renames command fields to form fields). */
export function errorsByField(
  error: string | null,
  aliases: Record<string, string> = {},
): Map<string | null, string[]> {
  const byField = new Map<string | null, string[]>();
  if (!error) return byField;
  for (const e of fieldErrors(error)) {
    const field = e.field === null ? null : (aliases[e.field] ?? e.field);
    byField.set(field, [...(byField.get(field) ?? []), formatFieldError(e)]);
  }
  return byField;
}
