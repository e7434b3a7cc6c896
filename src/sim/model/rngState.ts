// The state of the simulation's seeded PRNG (kernel/rng.ts draws from it), kept as plain numbers
// so that a checkpoint is a structured clone.

export interface IntSource {
  /** A uniform integer in [0, bound). */
  nextInt(bound: number): number;
}

export interface RngState {
  a: number;
  b: number;
  c: number;
  d: number;
}
