/**
 * The cluster files' texts as predictions read them, keystroke after keystroke. A capture of a large cluster is
 * 100 MB and more: reading it from disk, hashing it into a prediction's fingerprint and writing it into the key of
 * the engine's inputs on every keystroke cost more than the simulation itself. Here a file is read again only when
 * its stat changed (size, change and modification times in nanoseconds, inode), and each text has a short key
 * that changes exactly when the text does: the same text keeps its key (a file touched or saved unchanged) and
 * is the same string, so the prediction worker's check that it holds the cluster compares one pointer.
 */
import { readFileSync, statSync } from 'node:fs';

/** A cluster file's text and the key that stands for it in fingerprints and the engine inputs' key. */
export interface ClusterText {
  readonly text: string;
  /** Equal for two reads exactly when their texts are equal (for this path). */
  readonly key: string;
  /** clusterObjectBound of the text. */
  readonly objectBound: number;
}

/**
 * About how many objects a cluster text holds, at most: its `kind:` keys (an owner reference's count too), counted
 * once per text. It weighs a scope's simulation before the capture is read: a prediction on a large cluster runs
 * in the prediction worker even when it applies one manifest.
 */
function clusterObjectBound(text: string): number {
  let count = 0;
  for (let at = text.indexOf('kind:'); at >= 0; at = text.indexOf('kind:', at + 5)) {
    count++;
  }
  return count;
}

/** Per path, the last text read and its key. */
export class ClusterTexts {
  private readonly files = new Map<string, ClusterText & { readonly stamp: string }>();
  private nextVersion = 1;

  /** The text of the cluster file at `path`: `open`, the open editor's unsaved contents, when it is open. */
  read(path: string, open: string | undefined): ClusterText {
    const known = this.files.get(path);
    if (open !== undefined) {
      return this.remember(path, known, open, '');
    }
    const stamp = stampOf(path);
    if (known !== undefined && stamp !== '' && known.stamp === stamp) {
      return known;
    }
    return this.remember(path, known, readTextOrEmpty(path), stamp);
  }

  private remember(path: string, known: ClusterText | undefined, text: string, stamp: string): ClusterText {
    const entry =
      known !== undefined && known.text === text
        ? { ...known, stamp }
        : {
            stamp,
            text,
            key: `v${this.nextVersion++}:${text.length}`,
            objectBound: clusterObjectBound(text),
          };
    this.files.set(path, entry);
    return entry;
  }
}

/** What changes when a file is written: '' when it cannot be read (then it is read every time). */
function stampOf(path: string): string {
  const stat = statSync(path, { bigint: true, throwIfNoEntry: false });
  return stat === undefined || !stat.isFile()
    ? ''
    : `${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}:${stat.ino}:${stat.dev}`;
}

function readTextOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
