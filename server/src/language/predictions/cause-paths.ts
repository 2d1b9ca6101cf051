/**
 * Which field of a pod template causes a scheduling rejection: the request that is too large, the nodeSelector
 * or affinity term that matches no node, where a toleration is missing, the anti-affinity or spread constraint
 * that cannot be met. Paths are relative to the pod template (the object with `metadata` and `spec`); when the
 * field does not exist (a toleration to add), the path of the parent that would hold it is returned, and the
 * range falls back to it.
 */
import { INSUFFICIENT_RESOURCE_CODE } from '../../engine/scheduler/plugins/node-resources-fit';
import { UNTOLERATED_TAINT_CODE } from '../../engine/scheduler/plugins/taint-toleration';
import { parseQuantity } from '../../engine/model/quantity';

type Path = (string | number)[];
type Json = Record<string, unknown>;

/** The template path of the field behind a reason (by its stable code and its data). */
export function causePath(
  reason: { readonly code: string; readonly data?: Readonly<Record<string, string>> },
  template: unknown,
): Path {
  const spec = asObject(asObject(template)['spec']);
  switch (reason.code) {
    case INSUFFICIENT_RESOURCE_CODE:
      return resourcePath(spec, reason.data?.['resource'] ?? '');
    case UNTOLERATED_TAINT_CODE:
      return spec['tolerations'] === undefined ? ['spec'] : ['spec', 'tolerations'];
    case 'NodeAffinity/NodeAffinityMismatch':
    case 'NodeAffinity/AffinityTermsConflict':
      return spec['nodeSelector'] !== undefined
        ? ['spec', 'nodeSelector']
        : ['spec', 'affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution'];
    case 'NodePorts/PortsInUse':
      return hostPortPath(spec);
    case 'InterPodAffinity/AntiAffinityRulesNotMatch':
      return ['spec', 'affinity', 'podAntiAffinity', 'requiredDuringSchedulingIgnoredDuringExecution'];
    case 'InterPodAffinity/AffinityRulesNotMatch':
      return ['spec', 'affinity', 'podAffinity', 'requiredDuringSchedulingIgnoredDuringExecution'];
    case 'InterPodAffinity/ExistingAntiAffinityRulesNotMatch':
      // Other pods' anti-affinity selects this pod by its labels.
      return ['metadata', 'labels'];
    case 'PodTopologySpread/ConstraintsNotMatch':
    case 'PodTopologySpread/NodeLabelNotMatch':
      return ['spec', 'topologySpreadConstraints'];
    default:
      return ['spec'];
  }
}

/**
 * The request of a resource that weighs most: pod-level resources when they set it, else the container (or
 * init container) with the largest request — or limit, when the request defaults to it.
 */
function resourcePath(spec: Json, resource: string): Path {
  const podLevel = asObject(asObject(spec['resources'])['requests'])[resource];
  if (podLevel !== undefined) {
    return ['spec', 'resources', 'requests', resource];
  }
  let best: { path: Path; amount: number } | undefined;
  for (const list of ['initContainers', 'containers'] as const) {
    const containers = spec[list];
    if (!Array.isArray(containers)) {
      continue;
    }
    containers.forEach((container: unknown, index) => {
      const resources = asObject(asObject(container)['resources']);
      for (const kind of ['requests', 'limits'] as const) {
        const value = asObject(resources[kind])[resource];
        const amount = amountOf(value);
        if (amount !== undefined) {
          if (best === undefined || amount > best.amount) {
            best = { path: ['spec', list, index, 'resources', kind, resource], amount };
          }
          break;
        }
      }
    });
  }
  return best?.path ?? ['spec', 'containers'];
}

function hostPortPath(spec: Json): Path {
  const containers = Array.isArray(spec['containers']) ? (spec['containers'] as unknown[]) : [];
  for (let i = 0; i < containers.length; i++) {
    const ports = asObject(containers[i])['ports'];
    if (Array.isArray(ports)) {
      const j = ports.findIndex((port: unknown) => asObject(port)['hostPort'] !== undefined);
      if (j !== -1) {
        return ['spec', 'containers', i, 'ports', j, 'hostPort'];
      }
    }
  }
  return ['spec', 'containers'];
}

function amountOf(value: unknown): number | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') {
    return undefined;
  }
  const parsed = parseQuantity(value);
  return parsed.ok ? parsed.quantity.milli : undefined;
}

function asObject(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}
