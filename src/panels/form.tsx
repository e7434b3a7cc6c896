// Small pieces shared by the forms of the side panels: a command runner that keeps Kafka's error,
// labelled fields wired to their hint and error, and a field error placed next to its input and announced.
import {
  useCallback,
  useRef,
  useState,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
} from 'react';
import { sendCommand } from '../store/connection';
import { errorsByField, type Command } from '../store/panels';

export interface CommandState {
  busy: boolean;
  /** The refusal, in the engine's (Kafka's) words; null when the last command was accepted. */
  error: string | null;
  /** What the last accepted command did, in words. */
  done: string | null;
}

/** Runs commands one at a time and keeps the outcome of the latest. */
export function useCommand() {
  const [state, setState] = useState<CommandState>({ busy: false, error: null, done: null });
  const latest = useRef(0);
  const run = useCallback(async (command: Command, doneText: string): Promise<boolean> => {
    const ticket = ++latest.current;
    setState({ busy: true, error: null, done: null });
    const result = await sendCommand(command);
    if (ticket !== latest.current) return result.ok;
    setState(
      result.ok
        ? { busy: false, error: null, done: doneText }
        : { busy: false, error: result.error, done: null },
    );
    return result.ok;
  }, []);
  const fail = useCallback((error: string) => {
    latest.current++;
    setState({ busy: false, error, done: null });
  }, []);
  /** Forgets the latest outcome (a new, unrelated result is shown instead). */
  const clear = useCallback(() => {
    latest.current++;
    setState({ busy: false, error: null, done: null });
  }, []);
  return { ...state, run, fail, clear };
}

/**
 * A refusal's messages for the fields a form shows (`at(field)`), and the rest for the form as a
 * whole; `aliases` renames the command's fields to the form's.
 */
export function splitErrors(
  error: string | null,
  fields: readonly string[],
  aliases: Record<string, string> = {},
): { at: (field: string) => string[] | undefined; formErrors: string[] } {
  const byField = errorsByField(error, aliases);
  const formErrors = [...byField].filter(([f]) => !fields.includes(f ?? '')).flatMap(([, m]) => m);
  return { at: (field) => byField.get(field), formErrors };
}

/** The ids an input's aria-describedby lists: its hint and its error, when present. */
export function describedBy(...ids: (string | false | null | undefined)[]): string | undefined {
  const list = ids.filter((id): id is string => typeof id === 'string' && id !== '');
  return list.length ? list.join(' ') : undefined;
}

/** An error shown next to the field it concerns; role=alert so it is announced when it appears. */
export function FieldErrors({ id, messages }: { id: string; messages: string[] | undefined }) {
  if (!messages || messages.length === 0) return null;
  return (
    <div id={id} className="field-error" role="alert">
      {messages.map((message) => (
        <p key={message}>
          <KafkaText text={message} />
        </p>
      ))}
    </div>
  );
}

/** What every labelled field of a `form-grid` takes. */
interface FieldProps {
  /** The control's id (the label points at it). */
  id: string;
  label: ReactNode;
  /** Messages shown under the field, e.g. Kafka's refusal of it; while there are some the field is aria-invalid. */
  errors?: string[] | undefined;
  /** The error element's id; `${id}-error` by default. */
  errorId?: string;
  /** A line of help under the field, which the control is described by. */
  hint?: ReactNode;
  /** The hint's id; `${id}-hint` by default. */
  hintId?: string;
}

/** aria-invalid and aria-describedby of a field's control: its hint, and its error while it has one. */
function fieldAria({ id, errors, errorId, hint, hintId }: FieldProps) {
  const invalid = !!errors && errors.length > 0;
  return {
    'aria-invalid': invalid ? true : undefined,
    'aria-describedby': describedBy(
      hint !== undefined && (hintId ?? `${id}-hint`),
      invalid && (errorId ?? `${id}-error`),
    ),
  } as const;
}

/** A grid row: the label, then the control with its hint and its errors under it. */
function Field({ id, label, errors, errorId, hint, hintId, children }: FieldProps & { children: ReactNode }) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <div>
        {children}
        {hint !== undefined && (
          <p className="hint" id={hintId ?? `${id}-hint`}>
            {hint}
          </p>
        )}
        <FieldErrors id={errorId ?? `${id}-error`} messages={errors} />
      </div>
    </>
  );
}

/** A field's own props, and the rest for its control. */
function splitField<P extends FieldProps>({ id, label, errors, errorId, hint, hintId, ...control }: P) {
  return [{ id, label, errors, errorId, hint, hintId }, control] as const;
}

type Omitted = 'id' | 'value' | 'onChange' | 'aria-invalid' | 'aria-describedby';

/** A labelled text (or number) input of a `form-grid`, with its hint and errors. */
export function TextField(
  props: FieldProps &
    Omit<InputHTMLAttributes<HTMLInputElement>, Omitted> & {
      value: string;
      onValue: (value: string) => void;
    },
) {
  const [field, { value, onValue, ...input }] = splitField(props);
  return (
    <Field {...field}>
      <input
        id={field.id}
        value={value}
        onChange={(e) => onValue(e.target.value)}
        {...input}
        {...fieldAria(field)}
      />
    </Field>
  );
}

/** A labelled select of a `form-grid`, with its hint and errors; `options` lists values shown as they are. */
export function SelectField<V extends string>(
  props: FieldProps &
    Omit<SelectHTMLAttributes<HTMLSelectElement>, Omitted> & {
      value: V;
      onValue: (value: V) => void;
      options?: readonly V[];
    },
) {
  const [field, { value, onValue, options, children, ...select }] = splitField(props);
  return (
    <Field {...field}>
      <select
        id={field.id}
        value={value}
        onChange={(e) => onValue(e.target.value as V)}
        {...select}
        {...fieldAria(field)}
      >
        {options?.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
        {children}
      </select>
    </Field>
  );
}

/** A checkbox of a `form-grid`, its text as its label, in the control column, with its errors. */
export function CheckboxField({
  label,
  errors,
  errorId,
  checked,
  onChecked,
}: {
  label: ReactNode;
  errors?: string[] | undefined;
  errorId: string;
  checked: boolean;
  onChecked: (checked: boolean) => void;
}) {
  const invalid = !!errors && errors.length > 0;
  return (
    <>
      <span />
      <div>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={checked}
            onChange={(e) => onChecked(e.target.checked)}
            aria-invalid={invalid ? true : undefined}
            aria-describedby={invalid ? errorId : undefined}
          />
          {label}
        </label>
        <FieldErrors id={errorId} messages={errors} />
      </div>
    </>
  );
}

/** Text with Kafka's error names (NOT_ENOUGH_REPLICAS, ...) in bold, so they stand out without colour. */
export function KafkaText({ text }: { text: string }) {
  const parts = text.split(/\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b/);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <strong key={i} className="kafka-error-name">
            {part}
          </strong>
        ) : (
          part
        ),
      )}
    </>
  );
}

/**
 * The outcome of a form's latest command: a polite confirmation, or the refusal announced at once.
 * `errors` replaces the refusal's text when the form shows some of its lines next to fields.
 */
export function CommandOutcome({
  state,
  errors,
  children,
}: {
  state: CommandState;
  errors?: string[];
  children?: ReactNode;
}) {
  const shown = errors ?? (state.error ? [state.error] : []);
  return (
    <>
      <div role="status" className="panel-command-done">
        {state.done && <p>✓ {state.done}</p>}
        {children}
      </div>
      <div role="alert" className="panel-command-error">
        {shown.map((message) => (
          <p key={message}>
            <span className="visually-hidden">Refused: </span>
            <KafkaText text={message} />
          </p>
        ))}
      </div>
    </>
  );
}
