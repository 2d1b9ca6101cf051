/**
 * The cluster profiles, in the order `foresight profiles` lists them: the embedded default first, then the
 * managed clouds, then the local distributions. `--profile NAME` and the editor's cluster pick name one.
 */
import { DEFAULT_CLUSTER_PROFILE } from '../default-cluster';
import type { ClusterProfile } from './cluster-profile';
import { AKS_PROFILE, EKS_PROFILE, GKE_PROFILE } from './cloud-profiles';
import { K3D_PROFILE, KIND_PROFILE, MINIKUBE_PROFILE } from './local-profiles';

/** Every profile. */
export const CLUSTER_PROFILES: readonly ClusterProfile[] = [
  DEFAULT_CLUSTER_PROFILE,
  GKE_PROFILE,
  EKS_PROFILE,
  AKS_PROFILE,
  KIND_PROFILE,
  K3D_PROFILE,
  MINIKUBE_PROFILE,
];

/** The profile of a name, or undefined. */
export function findProfile(name: string): ClusterProfile | undefined {
  return CLUSTER_PROFILES.find((profile) => profile.name === name);
}
