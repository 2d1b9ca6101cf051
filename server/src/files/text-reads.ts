/**
 * One command line's file reads: each file is read from disk and decoded once, however many readers look at it.
 * The GitOps scan reads every file named to find Argo CD Applications and Flux Kustomizations, then the manifest
 * reading reads the same files again: for a 130 MB cluster capture the second decode cost as much as the first.
 */
import { readFileSync } from 'node:fs';

/** Texts read once and handed over: the first reader reads from disk, a later one gets the same string. */
export class TextReads {
  private readonly texts = new Map<string, string>();

  /** The file's text, read from disk the first time; undefined when it cannot be read (that reader skips it). */
  readOrUndefined(file: string): string | undefined {
    try {
      return this.read(file);
    } catch {
      return undefined;
    }
  }

  /** The file's text; throws as readFileSync throws when it cannot be read (that reader reports it). */
  read(file: string): string {
    const known = this.texts.get(file);
    if (known !== undefined) {
      return known;
    }
    // Read as bytes, then decoded: Node 20's readFileSync(file, 'utf8') took 2.1-2.4 s of CPU for a 130 MB
    // capture where the buffer and its toString took 1.6 s (same machine, same file, back to back). The text is
    // the same, invalid sequences and a byte-order mark included (text-reads.test.ts).
    const text = readFileSync(file).toString('utf8');
    this.texts.set(file, text);
    return text;
  }
}
