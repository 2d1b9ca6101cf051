/**
 * The messages of findings about workloads: what the API server would reject (a selector that does not match the
 * template's labels, negative replicas, a missing template) and what explains an empty result (a DaemonSet no
 * node takes). The findings themselves are the one Finding, built by model/findings.ts engineFinding; each
 * message is worded once, here.
 */
/** `Deployment "web"`: how messages name a workload. */
export function describeWorkload(kind: string, name: string | undefined): string {
  return name === undefined ? `${kind} without a name` : `${kind} "${name}"`;
}

/** The message of each code; the API server's own wording follows the colon where it has one. */
export const WORKLOAD_MESSAGES = {
  missingName: (kind: string) => `${kind} has no metadata.name, so no pods can be named after it`,
  missingTemplate: (workload: string, field: string) =>
    `${workload} has no pod template, so the API server rejects it: ${field}: Required value`,
  missingSelector: (workload: string) =>
    `${workload} has no selector, so the API server rejects it: spec.selector: Required value`,
  emptySelector: (workload: string, kind: string) =>
    `${workload} has an empty selector, so the API server rejects it: spec.selector: Invalid value: ` +
    `empty selector is invalid for ${kind.toLowerCase()}`,
  invalidSelector: (workload: string, detail: string) =>
    `${workload} has a malformed selector, so the API server rejects it: ${detail}`,
  selectorMismatch: (workload: string, labels: Readonly<Record<string, string>>, labelsField: string) =>
    `${workload}: spec.selector does not select the pod template's labels, so the API server rejects it: ` +
    `${labelsField}: Invalid value: ${JSON.stringify(labels)}: \`selector\` does not match template \`labels\``,
  negativeCount: (workload: string, field: string, value: number) =>
    `${workload}: ${field}: Invalid value: ${value}: must be greater than or equal to 0`,
  invalidField: (workload: string, field: string, expected: string, value: unknown) =>
    `${workload}: ${field} must be ${expected}, not ${JSON.stringify(value)}, so the API server rejects it`,
  jobSelectorNotGenerated: (workload: string, specField: string) =>
    `${workload} sets ${specField}.selector without ${specField}.manualSelector: true, so the API server ` +
    `rejects it: ${specField}.selector: Invalid value: \`selector\` not auto-generated`,
  indexedWithoutCompletions: (workload: string, specField: string) =>
    `${workload} is Indexed but has no completions, so the API server rejects it: ${specField}.completions: ` +
    'Required value: when completion mode is Indexed',
  jobRestartPolicy: (workload: string, field: string, value: string) =>
    `${workload}: a Job's pods must not restart in place, so the API server rejects it: ` +
    `${field}: Unsupported value: "${value}": supported values: "OnFailure", "Never"`,
  deploymentPaused: (workload: string) =>
    `${workload} is paused: its controller creates no ReplicaSet, and so no pods, until it is resumed`,
  noEligibleNode: (workload: string, nodeCount: number, reasons: string) =>
    nodeCount === 0
      ? `${workload} creates no pod: the cluster has no node`
      : `${workload} creates no pod: none of the ${nodeCount} node(s) is eligible (${reasons})`,
} as const;
