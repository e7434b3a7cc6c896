import { describe, expect, it } from 'vitest';
import { entryOf, historyStep } from './terminal';

describe('entryOf', () => {
  it('keeps the output of a line that only read, and marks a changing line as recorded', () => {
    expect(entryOf(1, 'kafka-topics.sh --list', { ok: true, output: 'orders', readOnly: true })).toEqual({
      id: 1,
      line: 'kafka-topics.sh --list',
      output: 'orders',
      ok: true,
      recorded: false,
    });
    expect(entryOf(2, 'x', { ok: true, output: 'Created topic t.' }).recorded).toBe(true);
  });
  it("shows a refusal in the tool's words", () => {
    expect(
      entryOf(3, 'x', { ok: false, error: 'e', output: "Topic 'orders' already exists." }),
    ).toMatchObject({
      ok: false,
      output: "Topic 'orders' already exists.",
    });
    expect(entryOf(4, 'x', { ok: false, error: 'command.line: must be one command line' }).output).toBe(
      'command.line: must be one command line',
    );
  });
});

describe('historyStep', () => {
  it('goes back to the oldest line and forward to the draft, no further', () => {
    expect(historyStep(3, 3, 'ArrowUp')).toBe(2);
    expect(historyStep(3, 0, 'ArrowUp')).toBe(0);
    expect(historyStep(3, 2, 'ArrowDown')).toBe(3);
    expect(historyStep(3, 3, 'ArrowDown')).toBe(3);
  });
});
