import { describe, expect, it } from 'vitest';
import { defaultScenario } from '../scenario/presets';
import { MAX_SESSION_FILE_BYTES, newSession, sessionToJson } from '../scenario';
import { decodeSessionFile } from './fileDecoder';

/** A file whose contents cannot be read: reading it is a failure of the test. */
class UnreadableFile extends File {
  override text(): Promise<string> {
    throw new Error('the file was read');
  }
}

describe('opening a session or scenario file', () => {
  it('refuses a file over 5 MiB by its size, naming the file and the bound, without reading it', async () => {
    const big = new UnreadableFile(['x'], 'huge.json');
    Object.defineProperty(big, 'size', { value: 30 * 1024 * 1024 });
    const result = await decodeSessionFile(big);
    expect(result).toEqual({
      ok: false,
      issues: [
        {
          path: 'file',
          message:
            'huge.json is 30.0 MB; a session or scenario file may have at most 5.0 MB (5 MiB), so it was not read',
        },
      ],
    });
  });

  it('opens an exported session padded up to the bound', async () => {
    const json = sessionToJson(newSession(defaultScenario));
    const padded = json + ' '.repeat(MAX_SESSION_FILE_BYTES - json.length);
    const result = await decodeSessionFile(new File([padded], 'session.json'));
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.session.scenario).toEqual(defaultScenario);
  });

  it('lists the problems of a bad file as a link would', async () => {
    const result = await decodeSessionFile(new File(['{"version": 1, "seed": 1'], 'cut.json'));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues[0]).toMatchObject({ path: 'file', message: /not valid JSON/ });
  });
});
