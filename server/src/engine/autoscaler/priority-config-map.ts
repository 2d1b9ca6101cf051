/**
 * The priority expander's configuration as cluster-autoscaler reads it: the ConfigMap
 * `cluster-autoscaler-priority-expander` in the autoscaler's namespace (kube-system here, the usual install), whose
 * `priorities` key holds YAML mapping integer priorities to lists of regular expressions over node group names.
 * https://github.com/kubernetes/autoscaler/blob/master/cluster-autoscaler/expander/priority/priority.go
 * (reloadConfigMap, parsePrioritiesYAMLString, BestOption). A ConfigMap without the key, with empty or unparsable
 * YAML, or with a regular expression that does not compile is refused with upstream's warning, and then, as
 * upstream's BestOption returns no option when the configuration cannot be loaded, no scale-up is chosen. Left
 * out: a ConfigMap absent for certain (upstream chooses nothing then too) is not told from one a capture did not
 * include, so without one the expander picks at random among the options. Regular expressions are JavaScript's,
 * not Go's RE2 (the same for the patterns group names use in practice).
 */
import { parse } from 'yaml';
import type { SourcedObject } from '../model/load/cluster-load';
import { asObject, isJsonObject, readString } from '../model/json';
import type { Finding } from '../../../../protocol/finding';
import { engineFinding } from '../model/findings';

/** The ConfigMap's name and key (priority.go PriorityConfigMapName, ConfigMapKey). */
export const PRIORITY_CONFIG_MAP = 'cluster-autoscaler-priority-expander';
const PRIORITIES_KEY = 'priorities';
/** cluster-autoscaler's --namespace default. */
const AUTOSCALER_NAMESPACE = 'kube-system';

/**
 * The priorities of the ConfigMap among `objects` (the last one wins, as the apply's replaces the cluster's):
 * undefined when there is none, null when it cannot be loaded (reported in `findings`).
 */
export function readPriorityConfigMap(
  objects: readonly SourcedObject[],
  findings: Finding[],
): Map<number, string[]> | null | undefined {
  const found = objects.filter(({ object }) => isPriorityConfigMap(object)).at(-1);
  if (found === undefined) {
    return undefined;
  }
  const data = asObject(asObject(found.object)['data']);
  const problem = (message: string): null => {
    findings.push(
      engineFinding(
        'autoscaler-config-invalid',
        found.source,
        ['data', PRIORITIES_KEY],
        `${message}. Ignoring update. With --expander=priority, cluster-autoscaler then chooses no node group: no scale-up happens`,
      ),
    );
    return null;
  };
  const text = data[PRIORITIES_KEY];
  if (typeof text !== 'string') {
    return problem(`Wrong configmap for priority expander, doesn't contain ${PRIORITIES_KEY} key`);
  }
  const wrong = (reason: string): null => problem(`Wrong configuration for priority expander: ${reason}`);
  if (text.trim() === '') {
    return wrong(
      `priority configuration in ${PRIORITY_CONFIG_MAP} configmap is empty; please provide valid configuration`,
    );
  }
  let config: unknown;
  try {
    config = parse(text, { maxAliasCount: 100 });
  } catch (error: unknown) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return wrong(`Can't parse YAML with priorities in the configmap: ${reason}`);
  }
  if (!isJsonObject(config)) {
    return wrong("Can't parse YAML with priorities in the configmap: not a map of priorities");
  }
  const priorities = new Map<number, string[]>();
  for (const [key, list] of Object.entries(config)) {
    const priority = Number(key);
    if (!/^-?\d+$/.test(key.trim()) || !Number.isSafeInteger(priority)) {
      return wrong(`Can't parse YAML with priorities in the configmap: "${key}" is not an integer priority`);
    }
    if (!Array.isArray(list) || !list.every((item) => typeof item === 'string')) {
      return wrong(
        `Can't parse YAML with priorities in the configmap: priority ${key} is not a list of strings`,
      );
    }
    for (const pattern of list) {
      try {
        new RegExp(pattern);
      } catch {
        return wrong(`Can't compile regexp rule for priority ${key} and rule ${pattern}`);
      }
    }
    priorities.set(priority, [...(priorities.get(priority) ?? []), ...list]);
  }
  return priorities;
}

function isPriorityConfigMap(object: unknown): boolean {
  if (!isJsonObject(object) || object['apiVersion'] !== 'v1' || object['kind'] !== 'ConfigMap') {
    return false;
  }
  const metadata = asObject(object['metadata']);
  return (
    readString(metadata['name']) === PRIORITY_CONFIG_MAP &&
    readString(metadata['namespace']) === AUTOSCALER_NAMESPACE
  );
}
