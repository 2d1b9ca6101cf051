/**
 * The API server's admission of a pod, for pods a user applies and pods controllers create alike: every plugin's
 * mutation in the API server's order (names.ts), then every validation; the first refusal wins, worded as the API
 * server's Forbidden error. Mutations are made on a copy of the spec, remembered per template spec, so the pods of
 * one template share one admitted spec (what the pod loader caches by) and the template itself is never touched.
 */
import { isRecord } from '../model/objects';
import type { PodAdmissionPlugin } from './pod-admission-plugin';
import type { Refusal } from './rejected';
import { forbiddenMessage } from './rejected';

/** A pod admitted (its JSON, mutated) or refused. */
type PodAdmission =
  | { readonly admitted: true; readonly pod: Record<string, unknown> }
  | {
      readonly admitted: false;
      readonly refusal: Refusal;
      /** The field of the pod that causes the refusal. */
      readonly path: readonly (string | number)[];
    };

/** Admits pods through a list of plugins in the API server's order. */
export class PodAdmissionChain {
  private readonly admittedSpecs = new WeakMap<object, Record<string, unknown>>();

  constructor(private readonly plugins: readonly PodAdmissionPlugin[]) {}

  /** Admits one pod. */
  admit(pod: Record<string, unknown>): PodAdmission {
    const spec = isRecord(pod['spec']) ? pod['spec'] : undefined;
    let admittedSpec = spec === undefined ? undefined : this.admittedSpecs.get(spec);
    if (spec !== undefined && admittedSpec === undefined) {
      admittedSpec = spec;
      for (const plugin of this.plugins) {
        admittedSpec = plugin.mutateSpec?.(admittedSpec, pod) ?? admittedSpec;
      }
      this.admittedSpecs.set(spec, admittedSpec);
    }
    const admitted =
      admittedSpec === undefined || admittedSpec === spec ? pod : { ...pod, spec: admittedSpec };
    for (const plugin of this.plugins) {
      const refusal = plugin.validate?.(admitted);
      if (refusal !== undefined && refusal !== null) {
        return {
          admitted: false,
          refusal: {
            stage: 'admission',
            plugin: plugin.name,
            message: forbiddenMessage('pods', nameForErrors(pod), refusal.reason),
            ...(refusal.quotaRoom === undefined ? {} : { quotaRoom: refusal.quotaRoom }),
          },
          path: refusal.path,
        };
      }
    }
    return { admitted: true, pod: admitted };
  }
}

/** The name admission errors give a pod: its name, or its generateName before the name is generated. */
function nameForErrors(pod: Record<string, unknown>): string {
  const metadata = isRecord(pod['metadata']) ? pod['metadata'] : {};
  const generateName = metadata['generateName'];
  const name = metadata['name'];
  return typeof generateName === 'string' && generateName !== ''
    ? generateName
    : typeof name === 'string'
      ? name
      : '';
}
