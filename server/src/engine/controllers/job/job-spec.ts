/**
 * A JobSpec as the Job controller reads it, with the API server's defaults (SetDefaults_Job): parallelism 1,
 * completionMode NonIndexed, backoffLimit 6 (MaxInt32 with backoffLimitPerIndex), podReplacementPolicy Failed with
 * a podFailurePolicy else TerminatingOrFailed; the pod template gets the labels generateSelector adds. Used for a
 * Job of the apply or the cluster file and for each Job a CronJob creates from its jobTemplate.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/batch/v1/defaults.go
 */
import { generatedJobLabels } from '../../workloads/job';
import type { JsonObject } from '../../model/json';
import { asArray, asObject, isJsonObject, readString, readStringMap } from '../../model/json';
import type { SuccessPolicyRule } from './job-arithmetic';
import type { JobSpec } from '../../apiserver/job-objects';
import type { PodFailurePolicy, PodFailurePolicyRule } from './pod-failure-policy';

/** backoffLimit when backoffLimitPerIndex is set (math.MaxInt32). */
const MAX_INT32 = 2147483647;

/** JobSpec with its defaults; the template gets the selector labels unless manualSelector. */
export function readJobSpec(spec: JsonObject, job: { readonly name: string; readonly uid: string }): JobSpec {
  const template = asObject(spec['template']);
  const templateMetadata = asObject(template['metadata']);
  const labels =
    spec['manualSelector'] === true
      ? readStringMap(templateMetadata['labels'])
      : { ...readStringMap(templateMetadata['labels']), ...generatedJobLabels(job) };
  const backoffLimitPerIndex = asCount(spec['backoffLimitPerIndex']);
  const podFailurePolicy = readPodFailurePolicy(spec['podFailurePolicy']);
  const podSpec = asObject(template['spec']);
  return {
    parallelism: asCount(spec['parallelism']) ?? 1,
    completions: asCount(spec['completions']),
    completionMode: spec['completionMode'] === 'Indexed' ? 'Indexed' : 'NonIndexed',
    backoffLimit: asCount(spec['backoffLimit']) ?? (backoffLimitPerIndex === null ? 6 : MAX_INT32),
    backoffLimitPerIndex,
    maxFailedIndexes: asCount(spec['maxFailedIndexes']),
    activeDeadlineSeconds: asCount(spec['activeDeadlineSeconds']),
    ttlSecondsAfterFinished: asCount(spec['ttlSecondsAfterFinished']),
    podFailurePolicy,
    successPolicy: readSuccessPolicy(spec['successPolicy']),
    podReplacementPolicy:
      spec['podReplacementPolicy'] === 'Failed' ||
      (spec['podReplacementPolicy'] === undefined && podFailurePolicy !== null)
        ? 'Failed'
        : 'TerminatingOrFailed',
    restartPolicy: podSpec['restartPolicy'] === 'OnFailure' ? 'OnFailure' : 'Never',
    template: { ...template, metadata: { ...templateMetadata, labels } },
  };
}

/** A non-negative integer field, else null. */
export function asCount(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

function readPodFailurePolicy(value: unknown): PodFailurePolicy | null {
  if (!isJsonObject(value)) {
    return null;
  }
  const rules = asArray(value['rules']).map((raw): PodFailurePolicyRule => {
    const rule = asObject(raw);
    const onExitCodes = asObject(rule['onExitCodes']);
    const containerName = readString(onExitCodes['containerName']);
    return {
      action: readString(rule['action']) ?? '',
      ...(isJsonObject(rule['onExitCodes'])
        ? {
            onExitCodes: {
              ...(containerName === undefined ? {} : { containerName }),
              operator: readString(onExitCodes['operator']) ?? '',
              values: asArray(onExitCodes['values']).filter(
                (code): code is number => typeof code === 'number',
              ),
            },
          }
        : {}),
      ...(Array.isArray(rule['onPodConditions'])
        ? {
            onPodConditions: asArray(rule['onPodConditions']).map((pattern) => ({
              type: readString(asObject(pattern)['type']) ?? '',
              status: readString(asObject(pattern)['status']) ?? 'True',
            })),
          }
        : {}),
    };
  });
  return { rules };
}

function readSuccessPolicy(value: unknown): SuccessPolicyRule[] | null {
  if (!isJsonObject(value)) {
    return null;
  }
  return asArray(value['rules']).map((raw) => {
    const rule = asObject(raw);
    const indexes = readString(rule['succeededIndexes']);
    const succeededCount = asCount(rule['succeededCount']);
    return {
      ...(indexes === undefined ? {} : { succeededIndexes: indexes }),
      ...(succeededCount === null ? {} : { succeededCount }),
    };
  });
}
