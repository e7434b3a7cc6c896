// Reading an array at an index an invariant keeps in range (modular arithmetic, a length checked
// just before): a broken invariant throws here instead of carrying `undefined` into the run.

/** `xs[i]` for an `i` known to be in range; a RangeError when it is not. */
export function itemAt<T>(xs: readonly T[], i: number): T {
  const x = xs[i];
  if (x === undefined) throw new RangeError(`index ${i} is outside 0..${xs.length - 1}`);
  return x;
}

/** The first index of sorted `xs` whose value is not below `x` (xs.length when every one is). */
export function lowerBound(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
