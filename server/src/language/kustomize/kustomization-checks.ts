/**
 * The check of a kustomization file itself: kustomize reads it strictly and refuses a field it does not know
 * ("invalid Kustomization: json: unknown field \"resource\""). The fields are those of kustomize's Kustomization
 * type (https://github.com/kubernetes-sigs/kustomize/blob/master/api/types/kustomization.go); the values of the
 * fields are left to kustomize.
 */
import type { Node } from 'yaml';
import type { TextFinding } from '../findings';
import { closestMatch } from '../schema/closest-match';
import { rangeForKey } from '../yaml/node-at-path';
import { severityOf } from '../findings';

/** The top-level fields of a Kustomization or Component (kustomize v5). */
const KUSTOMIZATION_FIELDS = [
  'apiVersion',
  'kind',
  'metadata',
  'openapi',
  'namePrefix',
  'nameSuffix',
  'namespace',
  'commonLabels',
  'labels',
  'commonAnnotations',
  'patchesStrategicMerge',
  'patchesJson6902',
  'patches',
  'images',
  'imageTags',
  'replacements',
  'replicas',
  'vars',
  'sortOptions',
  'resources',
  'components',
  'crds',
  'bases',
  'configMapGenerator',
  'secretGenerator',
  'helmGlobals',
  'helmCharts',
  'helmChartInflationGenerator',
  'generatorOptions',
  'configurations',
  'generators',
  'transformers',
  'validators',
  'buildMetadata',
];

/** Unknown top-level fields of a kustomization, each on its key, with the nearest known name. */
export function checkKustomization(value: unknown, root: Node | undefined): TextFinding[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [];
  }
  const findings: TextFinding[] = [];
  for (const field of Object.keys(value)) {
    if (KUSTOMIZATION_FIELDS.includes(field)) {
      continue;
    }
    const range = rangeForKey(root, [field]);
    if (range === undefined) {
      continue;
    }
    const suggestion = closestMatch(field, KUSTOMIZATION_FIELDS);
    const finding: TextFinding = {
      code: 'schema-unknown-field',
      severity: severityOf('schema-unknown-field'),
      message:
        `invalid Kustomization: json: unknown field "${field}"` +
        (suggestion === undefined ? '.' : `; did you mean "${suggestion}"?`),
      start: range[0],
      end: range[1],
    };
    findings.push(
      suggestion === undefined
        ? finding
        : { ...finding, fix: { replacement: suggestion, title: `Rename to "${suggestion}"` } },
    );
  }
  return findings;
}
