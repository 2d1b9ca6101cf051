/**
 * Priority (plugin/pkg/admission/priority/admission.go): a pod naming a PriorityClass that does not exist is
 * refused ("no PriorityClass with name X was found"); otherwise its priority is the class's value, else the
 * globalDefault class's, else 0 (resolved where the pod is loaded, model/load/priority.ts).
 */
import type { PriorityClassInfo } from '../../model/snapshot/cluster';
import { isRecord } from '../../model/objects';
import { ADMISSION_PLUGIN } from '../names';
import type { PodAdmissionPlugin } from '../pod-admission-plugin';

/** The Priority plugin over the cluster's PriorityClasses (system classes included). */
export function priorityPlugin(classes: ReadonlyMap<string, PriorityClassInfo>): PodAdmissionPlugin {
  return {
    name: ADMISSION_PLUGIN.Priority,
    validate(pod) {
      const spec = isRecord(pod['spec']) ? pod['spec'] : {};
      const className = spec['priorityClassName'];
      if (typeof className !== 'string' || className === '' || classes.has(className)) {
        return null;
      }
      return {
        reason: `no PriorityClass with name ${className} was found`,
        path: ['spec', 'priorityClassName'],
      };
    },
  };
}
