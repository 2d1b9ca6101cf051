/**
 * Seeded pseudo-random numbers (mulberry32 over a 32-bit state derived from a seed string with FNV-1a). The engine
 * never calls Math.random: where Kubernetes would pick at random, the engine either picks deterministically or
 * draws from one of these, created from a seed written in the input, so the same input gives the same timeline.
 */

/** A deterministic source of numbers in [0, 1). */
export class SeededRandom {
  private state: number;

  constructor(seed: string | number) {
    this.state = typeof seed === 'number' ? seed >>> 0 : hashSeed(seed);
  }

  /** The next number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, bound). */
  nextInt(bound: number): number {
    return Math.floor(this.next() * bound);
  }
}

/** FNV-1a of the seed's UTF-16 code units, as a 32-bit unsigned state. */
function hashSeed(seed: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    hash ^= seed.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
