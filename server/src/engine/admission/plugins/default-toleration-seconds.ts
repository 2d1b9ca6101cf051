/**
 * DefaultTolerationSeconds (plugin/pkg/admission/defaulttolerationseconds/admission.go): a pod that does not
 * tolerate the node.kubernetes.io/not-ready and node.kubernetes.io/unreachable NoExecute taints gets a toleration
 * of each for 300 s (--default-not-ready-toleration-seconds, --default-unreachable-toleration-seconds), so it is
 * evicted 5 minutes after its node fails, and it may be scheduled onto a node tainted only NoExecute not-ready.
 */
import { isRecord } from '../../model/objects';
import type { TolerationObject } from '../../model/objects';
import { ADMISSION_PLUGIN } from '../names';
import type { PodAdmissionPlugin } from '../pod-admission-plugin';

/** The taint the node lifecycle controller puts on a node whose kubelet stopped reporting. */
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';
/** The taint of a node whose Ready condition is False. */
const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
/** The plugin's default for both taints. */
export const DEFAULT_TOLERATION_SECONDS = 300;

/** The tolerations a pod has after admission (the two defaults added when not tolerated already). */
export function admittedTolerations(tolerations: readonly TolerationObject[]): TolerationObject[] {
  const result = [...tolerations];
  for (const key of [TAINT_NOT_READY, TAINT_UNREACHABLE]) {
    // As the plugin: a toleration with this key (or an empty key, which matches every key) and the NoExecute
    // effect (or none, which matches every effect) counts.
    const tolerated = tolerations.some(
      (toleration) =>
        (toleration.key === key || (toleration.key ?? '') === '') &&
        (toleration.effect === 'NoExecute' || (toleration.effect ?? '') === ''),
    );
    if (!tolerated) {
      result.push({
        key,
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: DEFAULT_TOLERATION_SECONDS,
      });
    }
  }
  return result;
}

/** The plugin: adds the tolerations to the pod's spec (a new spec object; the template is not touched). */
export const DEFAULT_TOLERATION_SECONDS_PLUGIN: PodAdmissionPlugin = {
  name: ADMISSION_PLUGIN.DefaultTolerationSeconds,
  mutateSpec(spec) {
    const tolerations = Array.isArray(spec['tolerations'])
      ? (spec['tolerations'].filter(isRecord) as TolerationObject[])
      : [];
    const admitted = admittedTolerations(tolerations);
    return admitted.length === tolerations.length ? spec : { ...spec, tolerations: admitted };
  },
};
