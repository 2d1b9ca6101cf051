/**
 * Values the API server accepts only from a fixed set. Kubernetes' OpenAPI documents carry no `enum` for them
 * (it is checked in code, pkg/apis/core/validation and friends), so the schemas cannot catch
 * `imagePullPolicy: Alwayz`; this table does, keyed by the definition and property, and words the finding as
 * the API server does: `Unsupported value: "Alwayz": supported values: "Always", "IfNotPresent", "Never"`.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go
 */
import type { AnalysisContext, ObjectRule } from '../analyzer';
import type { TextFinding } from '../findings';
import type { ManifestObject } from '../kubernetes/manifest-object';
import { rangeForValue } from '../yaml/node-at-path';
import { closestMatch } from './closest-match';
import type { JsonSchema, SchemaStore } from './schema-store';
import { formatPath } from './validate-object';
import { knownEnumValues } from '../assist/enum-values';
import { severityOf } from '../findings';

const CORE = 'io.k8s.api.core.v1';
const APPS = 'io.k8s.api.apps.v1';

/**
 * The fields whose values the API server checks against a fixed set in every version we ship (the allowed
 * values come from the +enum table used by hover and completion, assist/enum-values.ts). Enum types whose
 * validation depends on feature gates are left out, and so are fields validated by more than set membership.
 */
const VALIDATED_FIELDS: readonly string[] = [
  `${CORE}.Container.imagePullPolicy`,
  `${CORE}.Container.terminationMessagePolicy`,
  `${CORE}.EphemeralContainer.imagePullPolicy`,
  `${CORE}.ContainerPort.protocol`,
  `${CORE}.ServicePort.protocol`,
  `${CORE}.PodSpec.restartPolicy`,
  `${CORE}.PodSpec.dnsPolicy`,
  `${CORE}.PodSpec.preemptionPolicy`,
  `${CORE}.Toleration.effect`,
  `${CORE}.Taint.effect`,
  `${CORE}.NodeSelectorRequirement.operator`,
  `${CORE}.TopologySpreadConstraint.whenUnsatisfiable`,
  `${CORE}.TopologySpreadConstraint.nodeAffinityPolicy`,
  `${CORE}.TopologySpreadConstraint.nodeTaintsPolicy`,
  `${CORE}.HTTPGetAction.scheme`,
  `${CORE}.ServiceSpec.type`,
  `${CORE}.ServiceSpec.sessionAffinity`,
  `${CORE}.ServiceSpec.externalTrafficPolicy`,
  `${CORE}.ServiceSpec.internalTrafficPolicy`,
  `${CORE}.ServiceSpec.ipFamilyPolicy`,
  `${CORE}.PersistentVolumeClaimSpec.volumeMode`,
  `${CORE}.PersistentVolumeSpec.persistentVolumeReclaimPolicy`,
  `${CORE}.PersistentVolumeSpec.volumeMode`,
  `${APPS}.DeploymentStrategy.type`,
  `${APPS}.StatefulSetSpec.podManagementPolicy`,
  `${APPS}.StatefulSetUpdateStrategy.type`,
  `${APPS}.DaemonSetUpdateStrategy.type`,
  'io.k8s.api.batch.v1.JobSpec.completionMode',
  'io.k8s.api.batch.v1.CronJobSpec.concurrencyPolicy',
  'io.k8s.api.policy.v1.PodDisruptionBudgetSpec.unhealthyPodEvictionPolicy',
];

/**
 * Where validation accepts fewer values than the +enum type lists, or the type is not in the table:
 * Toleration operators Lt and Gt exist only behind the alpha TaintTolerationComparisonOperators gate, and
 * apimachinery's LabelSelectorRequirement is not a k8s.io/api type.
 */
const VALIDATED_OVERRIDES: Readonly<Record<string, readonly string[]>> = {
  // Listed in the order validateRestartPolicy and validateDNSPolicy pass them to field.NotSupported.
  [`${CORE}.PodSpec.restartPolicy`]: ['Always', 'OnFailure', 'Never'],
  [`${CORE}.PodSpec.dnsPolicy`]: ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'],
  [`${CORE}.Toleration.operator`]: ['Exists', 'Equal'],
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement.operator': [
    'In',
    'NotIn',
    'Exists',
    'DoesNotExist',
  ],
};

/** "<definition>.<property>" → the values the API server supports, in the order its message lists them. */
const ENUM_FIELDS: Readonly<Record<string, readonly string[]>> = {
  ...Object.fromEntries(
    VALIDATED_FIELDS.map((field) => {
      const dot = field.lastIndexOf('.');
      const values = knownEnumValues(field.slice(0, dot), field.slice(dot + 1));
      if (values === undefined) {
        throw new Error(`enum table has no values for ${field}`);
      }
      // Most callers pass sets.List(...) to field.NotSupported, which is sorted.
      return [field, [...values].sort()];
    }),
  ),
  ...VALIDATED_OVERRIDES,
};

/** Array items whose every element is checked: "<definition>.<property>" → values. */
const ENUM_ARRAY_FIELDS: Readonly<Record<string, readonly string[]>> = {
  [`${CORE}.PersistentVolumeClaimSpec.accessModes`]:
    knownEnumValues(`${CORE}.PersistentVolumeClaimSpec`, 'accessModes') ?? [],
  [`${CORE}.PersistentVolumeSpec.accessModes`]:
    knownEnumValues(`${CORE}.PersistentVolumeSpec`, 'accessModes') ?? [],
};

/**
 * Pod templates of Jobs (and CronJobs) may only restart OnFailure or Never (ValidateJobSpec); the pod spec
 * definition alone cannot say so, so the kind narrows it.
 */
const JOB_RESTART_POLICIES = ['OnFailure', 'Never'];

/** The definitions that own a checked field: only their properties are visited. */
const ENUM_DEFINITIONS: ReadonlySet<string> = new Set(
  [...Object.keys(ENUM_FIELDS), ...Object.keys(ENUM_ARRAY_FIELDS)].map((field) =>
    field.slice(0, field.lastIndexOf('.')),
  ),
);
const MAX_DEPTH = 40;

/**
 * The two tables by definition, then property: a visit looks a field up by the two names it has rather than by
 * a "<definition>.<property>" string built for each property, which V8 then had to hash (built-in definitions
 * have no property with a dot, so the lookups agree).
 */
function byDefinition(
  fields: Readonly<Record<string, readonly string[]>>,
): ReadonlyMap<string, ReadonlyMap<string, readonly string[]>> {
  const tables = new Map<string, Map<string, readonly string[]>>();
  for (const [field, values] of Object.entries(fields)) {
    const dot = field.lastIndexOf('.');
    const definition = field.slice(0, dot);
    const table = tables.get(definition) ?? new Map<string, readonly string[]>();
    table.set(field.slice(dot + 1), values);
    tables.set(definition, table);
  }
  return tables;
}
const ENUM_FIELDS_BY_DEFINITION = byDefinition(ENUM_FIELDS);
const ENUM_ARRAY_FIELDS_BY_DEFINITION = byDefinition(ENUM_ARRAY_FIELDS);

/** Checks every fixed-set value of an object of a built-in kind. */
export const checkEnumValues: ObjectRule = (
  object: ManifestObject,
  context: AnalysisContext,
): TextFinding[] => {
  const store = context.store;
  const definition = store.definitionOf(object.apiVersion, object.kind);
  if (definition === undefined) {
    return [];
  }
  const findings: TextFinding[] = [];
  const isJob = object.kind === 'Job' || object.kind === 'CronJob';
  walk(store, definition, object.value, [], (definitionName, property, value, path) => {
    let allowed = ENUM_FIELDS_BY_DEFINITION.get(definitionName)?.get(property);
    const arrayAllowed = ENUM_ARRAY_FIELDS_BY_DEFINITION.get(definitionName)?.get(property);
    if (
      isJob &&
      definitionName === `${CORE}.PodSpec` &&
      property === 'restartPolicy' &&
      path.includes('template')
    ) {
      allowed = JOB_RESTART_POLICIES;
    }
    if (allowed !== undefined && typeof value === 'string' && !allowed.includes(value)) {
      const finding = unsupported(object, [...path], value, allowed);
      if (finding !== undefined) {
        findings.push(finding);
      }
    }
    if (arrayAllowed !== undefined && Array.isArray(value)) {
      value.forEach((item: unknown, index) => {
        if (typeof item === 'string' && !arrayAllowed.includes(item)) {
          const finding = unsupported(object, [...path, index], item, arrayAllowed);
          if (finding !== undefined) {
            findings.push(finding);
          }
        }
      });
    }
  });
  return findings;
};

function unsupported(
  object: ManifestObject,
  path: (string | number)[],
  value: string,
  allowed: readonly string[],
): TextFinding | undefined {
  const range = rangeForValue(object.node, path);
  if (range === undefined) {
    return undefined;
  }
  const suggestion = closestMatch(value, allowed);
  return {
    code: 'schema-enum',
    severity: severityOf('schema-enum'),
    message: `${formatPath(path)}: Unsupported value: ${JSON.stringify(value)}: supported values: ${[
      ...allowed,
    ]
      .sort()
      .map((v) => JSON.stringify(v))
      .join(', ')}`,
    start: range[0],
    end: range[1],
    ...(suggestion === undefined
      ? {}
      : { fix: { replacement: suggestion, title: `Change to ${suggestion}` } }),
  };
}

type Visit = (definitionName: string, property: string, value: unknown, path: (string | number)[]) => void;

/** Walks a value alongside its schema, naming the definition that owns each property. */
function walk(
  store: SchemaStore,
  definitionName: string,
  value: unknown,
  path: (string | number)[],
  visit: Visit,
  depth = 0,
): void {
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null || Array.isArray(value)) {
    return;
  }
  const schema = store.bundle.definitions[definitionName];
  const properties = schema?.properties;
  if (properties === undefined) {
    return;
  }
  const isVisited = ENUM_DEFINITIONS.has(definitionName);
  for (const [property, child] of Object.entries(value as Record<string, unknown>)) {
    const propertySchema = properties[property];
    if (propertySchema === undefined) {
      continue;
    }
    // One path array for the whole walk, grown and shrunk around each step; a visit copies it to keep it.
    path.push(property);
    if (isVisited) {
      visit(definitionName, property, child, path);
    }
    descend(store, propertySchema, child, path, visit, depth);
    path.pop();
  }
}

function descend(
  store: SchemaStore,
  schema: JsonSchema,
  value: unknown,
  path: (string | number)[],
  visit: Visit,
  depth: number,
): void {
  const reference = referenceOf(schema);
  if (reference !== undefined) {
    walk(store, reference, value, path, visit, depth + 1);
    return;
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    const itemReference = referenceOf(schema.items);
    if (itemReference !== undefined) {
      value.forEach((item: unknown, index) => {
        path.push(index);
        walk(store, itemReference, item, path, visit, depth + 1);
        path.pop();
      });
    }
    return;
  }
  if (typeof schema.additionalProperties === 'object' && typeof value === 'object' && value !== null) {
    const valueReference = referenceOf(schema.additionalProperties);
    if (valueReference !== undefined) {
      for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
        path.push(key);
        walk(store, valueReference, item, path, visit, depth + 1);
        path.pop();
      }
    }
  }
}

function referenceOf(schema: JsonSchema): string | undefined {
  return schema.$ref === undefined ? undefined : schema.$ref.slice(schema.$ref.lastIndexOf('/') + 1);
}
