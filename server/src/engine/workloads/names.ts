/**
 * Names of the objects controllers create. A generated name is the generateName prefix (cut to 58 characters)
 * plus five characters, as the API server's SimpleNameGenerator makes it; the prefix a controller asks for is
 * "<owner name>-" (getPodsPrefix). Our five characters come from a seed instead of a random source (hash.ts), and
 * an allocator makes them unique across one expansion, as the API server would by retrying.
 * https://github.com/kubernetes/apiserver/blob/master/pkg/storage/names/generate.go
 */
import { seededSuffix } from './hash';

/** maxNameLength (63) minus the random length (5): the longest prefix kept from a generateName. */
export const MAX_GENERATED_NAME_LENGTH = 58;

/** The generateName a controller gives the pods of an owner: "<owner>-". */
export function podsPrefix(ownerName: string): string {
  return `${ownerName}-`;
}

const NO_NAMES: ReadonlySet<string> = new Set();

/** Hands out generated names, never the same one twice, always the same ones for the same calls in order. */
export class NameAllocator {
  private readonly used = new Set<string>();

  /**
   * `taken`: keys (`namespace/name`) taken before, read and never changed here, so that one set can serve many
   * allocators: a capture's 150,000 pod names, shared by every prediction against it (pod-load-memo.ts).
   */
  constructor(private readonly taken: ReadonlySet<string> = NO_NAMES) {}

  /** Reserves a name that is fixed by its owner (a StatefulSet's "web-0", a bare pod's own name). */
  reserve(namespace: string, name: string): void {
    this.used.add(`${namespace}/${name}`);
  }

  /**
   * Reserves a pod's name by its key, `namespace/name` (PodInfo.key): the string the pod already holds, where
   * reserve would build and hash a new one for each of a capture's 150,000 pods.
   */
  reserveKey(key: string): void {
    this.used.add(key);
  }

  /** A generated name for `generateName`, from `seed` (retried with a counter on a clash). */
  generate(namespace: string, generateName: string, seed: string): string {
    const base = generateName.slice(0, MAX_GENERATED_NAME_LENGTH);
    for (let attempt = 0; ; attempt++) {
      const name = base + seededSuffix(attempt === 0 ? seed : `${seed}#retry${attempt}`);
      const key = `${namespace}/${name}`;
      if (!this.used.has(key) && !this.taken.has(key)) {
        this.used.add(key);
        return name;
      }
    }
  }
}
