import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { locateJsonError } from './jsonError';

describe('locateJsonError', () => {
  it.each([
    ['{\n  "version": 1,\n  "nodes": [ }\n', 3, 14],
    ['[1,2', 1, 5],
    ['', 1, 1],
    ['[1,2,]', 1, 6],
    ['{"a":1,}', 1, 8],
    ["{'a':1}", 1, 2],
    ['{"a": 01}', 1, 8],
    ['{"a": NaN}', 1, 7],
    ['// note\n{}', 1, 1],
    ['{"a":1} x', 1, 9],
    ['{"a":"\t"}', 1, 7],
    ['"\\x"', 1, 3],
    ['"\\u12G4"', 1, 4],
    ['{"a" 1}', 1, 6],
  ])('locates the error in %j at line %i, column %i', (text, line, column) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(locateJsonError(text)).toEqual({ line, column });
  });

  it('finds no error in valid JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, pretty) => {
        expect(locateJsonError(JSON.stringify(value, null, pretty ? 2 : undefined))).toBeNull();
      }),
    );
  });

  it('agrees with JSON.parse on what is valid', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'{}[]:,"\\ 01-.eE+tuefalsn\n') }), (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        expect(locateJsonError(text) === null).toBe(valid);
      }),
    );
  });
});
