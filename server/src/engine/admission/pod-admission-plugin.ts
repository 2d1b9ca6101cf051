/**
 * The contract of an admission plugin for pods: a name (the plugin's registered name, names.ts), a mutating phase
 * that returns the spec it would write (the same object when it changes nothing), and a validating phase that
 * returns why it refuses, or null. The chain (admit-pod.ts) runs every mutation in the API server's order, then
 * every validation in the same order.
 */
import type { AdmissionPluginName } from './names';
import type { QuotaRoom } from './rejected';

/** Why a plugin refuses a pod: the reason of the Forbidden error, and the field that causes it. */
interface PluginRefusal {
  readonly reason: string;
  readonly path: readonly (string | number)[];
  /** A quota's room left when ResourceQuota refuses for a missing resource (rejected.ts QuotaRoom). */
  readonly quotaRoom?: QuotaRoom;
}

/** One admission plugin's pod phases. */
export interface PodAdmissionPlugin {
  readonly name: AdmissionPluginName;
  /** The pod's spec after this plugin's mutation (the same object when unchanged). */
  mutateSpec?(spec: Record<string, unknown>, pod: Record<string, unknown>): Record<string, unknown>;
  /** Why the plugin refuses the (mutated) pod, or null. */
  validate?(pod: Record<string, unknown>): PluginRefusal | null;
}
