/**
 * The simulation report: plain, stable JSON (described by schemas/report.schema.json) built from the scheduling
 * records. Pods appear in input order (the order their manifests and controllers produce them), whatever order
 * the scheduler took them in. Each pod's and node's entry is built by scenario/report/report-entries.ts.
 */
import type { ReportNode, ReportPod } from '../scenario/report/report-entries';
import type { KubernetesMinor } from '../version';
import type { TimelineReport } from '../scenario/report/timeline-report';
import type { RejectedObject } from '../admission/rejected';
import type { Finding } from '../../../../protocol/finding';

/** The report's apiVersion. */
export const REPORT_API_VERSION = 'foresight/v1';

/**
 * What kind of cluster a prediction ran on, which says how certain it is: a capture (with its header: what it lacks
 * does not exist, and a failure is what a real apply would hit), a cluster file (written by hand, or a `kubectl get`
 * without a header), or a profile (the embedded default or a named one: node shapes assumed, not the user's).
 */
export type ClusterKind = 'capture' | 'file' | 'profile';

/** The cluster a report was made on. */
export interface ReportCluster {
  /** Where it came from: "embedded default cluster", "profile gke", the cluster files. */
  readonly source: string;
  readonly kind: ClusterKind;
  /** The profile's name, for a profile. */
  readonly profile?: string;
  readonly nodes: readonly ReportNode[];
}

/** The whole report; the timeline sections (scenario/report/timeline-report.ts) are absent when it was not run. */
export interface SimulationReport extends Partial<TimelineReport> {
  readonly apiVersion: typeof REPORT_API_VERSION;
  readonly kubernetesVersion: KubernetesMinor;
  readonly cluster: ReportCluster;
  readonly pods: readonly ReportPod[];
  /** What the API server refused (never simulated): objects of the apply, pods controllers tried to create. */
  readonly rejected: readonly RejectedObject[];
  /** Every finding of the run, located by object and field (the language service places them on lines). */
  readonly findings: readonly Finding[];
}
