// The one seeded PRNG of a simulation (sfc32, 128 bits of state kept as plain numbers so that
// a checkpoint is a structured clone). Never the platform's unseeded generator: a seed must replay a run exactly.

import type { IntSource, RngState } from '../model/rngState';

export type { IntSource, RngState } from '../model/rngState';

export function seedRng(seed: number): RngState {
  const s: RngState = { a: 0x9e3779b9, b: 0x243f6a88, c: 0xb7e15162, d: seed | 0 };
  for (let i = 0; i < 15; i++) nextUint32(s);
  return s;
}

export function nextUint32(s: RngState): number {
  const t = (((s.a + s.b) | 0) + s.d) | 0;
  s.d = (s.d + 1) | 0;
  s.a = s.b ^ (s.b >>> 9);
  s.b = (s.c + (s.c << 3)) | 0;
  s.c = (s.c << 21) | (s.c >>> 11);
  s.c = (s.c + t) | 0;
  return t >>> 0;
}

/** A float in [0, 1). */
export function nextFloat(s: RngState): number {
  return nextUint32(s) / 4294967296;
}

export function nextInt(s: RngState, bound: number): number {
  return Math.floor(nextFloat(s) * bound);
}

export function intSource(s: RngState): IntSource {
  return { nextInt: (bound) => nextInt(s, bound) };
}
