/**
 * Objects with a null item in a list of objects (`containers: [null]`, `taints: [~]`) are left out of the
 * simulation with a finding: the API server decodes such an item as an empty object and rejects the whole object
 * for the required fields it lacks, so predicting with it (or crashing on it) would be wrong. Lists of strings
 * (`args: [null]` reads as "") are accepted as the API server accepts them.
 */
import type { SourcedObject } from './cluster-load';
import { engineFinding } from '../findings';
import type { Finding } from '../../../../../protocol/finding';

/** Fields that hold lists of strings, where a null item is read as "". */
const STRING_LISTS = new Set([
  'args',
  'command',
  'values',
  'finalizers',
  'add',
  'drop',
  'nameservers',
  'searches',
  'hostnames',
  'accessModes',
  'matchLabelKeys',
  'mismatchLabelKeys',
  'externalIPs',
  'ipFamilies',
  'clusterIPs',
  'topologyKeys',
  'namespaces',
]);

/** Deeper than this the search stops (the YAML layer bounds nesting far below it). */
const MAX_DEPTH = 100;

/**
 * The path of the first null item in a list of objects, or undefined. The walk keeps one path it extends and
 * shortens, copied only for the answer: a copy per visited value made this walk a tenth of a prediction.
 */
function firstNullListItem(value: unknown): (string | number)[] | undefined {
  const path: (string | number)[] = [];
  const search = (current: unknown): boolean => {
    if (typeof current !== 'object' || current === null || path.length > MAX_DEPTH) {
      return false;
    }
    if (Array.isArray(current)) {
      const key = path.at(-1);
      const isStringList = typeof key === 'string' && STRING_LISTS.has(key);
      for (let index = 0; index < current.length; index++) {
        const item: unknown = current[index];
        path.push(index);
        if ((item === null && !isStringList) || search(item)) {
          return true;
        }
        path.pop();
      }
      return false;
    }
    // for…in with an own-property check: Object.keys' keys in Object.keys' order, without an array per object
    // (a capture of 150,000 pods has millions of objects).
    for (const key in current) {
      if (!Object.prototype.hasOwnProperty.call(current, key)) {
        continue;
      }
      path.push(key);
      if (search((current as Record<string, unknown>)[key])) {
        return true;
      }
      path.pop();
    }
    return false;
  };
  return search(value) ? [...path] : undefined;
}

/**
 * Each object's answer, by object: the language server gives the engine the same objects keystroke after
 * keystroke (those of unchanged documents; the prediction worker holds them between runs) and nothing mutates what
 * was read, so each object is walked once rather than once per simulation (a walk of every value of 1,000 objects).
 */
const answers = new WeakMap<object, readonly (string | number)[] | null>();

/** firstNullListItem, kept by object. */
function nullListItemOf(value: unknown): readonly (string | number)[] | undefined {
  if (typeof value !== 'object' || value === null) {
    return firstNullListItem(value);
  }
  let answer = answers.get(value);
  if (answer === undefined) {
    answer = firstNullListItem(value) ?? null;
    answers.set(value, answer);
  }
  return answer ?? undefined;
}

/** The objects without a null item in a list of objects; each one left out gets an 'invalid-field' finding. */
export function withoutNullListItems(inputs: readonly SourcedObject[], findings: Finding[]): SourcedObject[] {
  return inputs.filter((input) => {
    const found = nullListItemOf(input.object);
    if (found === undefined) {
      return true;
    }
    const path = [...found];
    const object = input.object as { kind?: unknown; metadata?: { name?: unknown } | null };
    const kind = typeof object.kind === 'string' ? object.kind : 'object';
    const name = typeof object.metadata?.name === 'string' ? ` "${object.metadata.name}"` : '';
    findings.push(
      engineFinding(
        'invalid-field',
        input.source,
        path,
        `${kind}${name}: ${formatPath(path)} is null; the API server reads a null list item as an empty object and rejects the ${kind}, so it is left out of the simulation`,
      ),
    );
    return false;
  });
}

function formatPath(path: readonly (string | number)[]): string {
  return path
    .map((segment, index) =>
      typeof segment === 'number' ? `[${segment}]` : index === 0 ? segment : `.${segment}`,
    )
    .join('');
}
