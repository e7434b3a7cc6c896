// Small pieces shared by the forms of the side panels: a command runner that keeps Kafka's error,
// and a field error placed next to its input and announced.
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { sendCommand } from '../store/connection';
import type { Command } from '../store/panels';

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
