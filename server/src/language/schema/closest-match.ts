/**
 * "Did you mean …?": the candidate nearest to a misspelt word, by edit distance with adjacent transpositions
 * (Damerau–Levenshtein, optimal string alignment), compared case-insensitively.
 */

/** The closest candidate within a distance proportional to the word's length, or undefined. */
export function closestMatch(word: string, candidates: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.min(3, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestDistance = Infinity;
  const lower = word.toLowerCase();
  for (const candidate of candidates) {
    if (candidate === word) {
      continue;
    }
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance || (distance === bestDistance && best !== undefined && candidate < best)) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/** Optimal string alignment distance between two strings. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 8) {
    return Math.abs(a.length - b.length);
  }
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) {
    d[i * cols] = i;
  }
  for (let j = 0; j < cols; j++) {
    d[j] = j;
  }
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        (d[(i - 1) * cols + j] ?? 0) + 1,
        (d[i * cols + j - 1] ?? 0) + 1,
        (d[(i - 1) * cols + j - 1] ?? 0) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (d[(i - 2) * cols + j - 2] ?? 0) + 1);
      }
      d[i * cols + j] = value;
    }
  }
  return d[rows * cols - 1] ?? 0;
}
