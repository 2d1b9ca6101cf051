/**
 * Every finding code the product emits, with its severity, defined once: the editor's diagnostics, `foresight
 * validate` and `foresight simulate` all use these, and docs/codes.md lists exactly these (a test compares them). Codes
 * are stable: users filter on them. A finding carries one of these codes from the place it is made to the report.
 */

/** How serious a finding is. */
type FindingSeverity = 'error' | 'warning' | 'information';

/** Each code with its severity. */
export const FINDING_CODES = {
  // Validation of manifests (the analyzer, the manifest reader, the cross-object rules)
  /** The text is not valid YAML. */
  'yaml-syntax': 'error',
  /**
   * A mapping has the same key twice. A warning, not an error: kubectl converts YAML to JSON leniently
   * (sigs.k8s.io/yaml YAMLToJSON, not YAMLToJSONStrict), so the last value silently wins and the API server
   * never sees the duplicate. kustomize (kubectl apply -k) refuses such a file.
   */
  'yaml-duplicate-key': 'warning',
  /** A tab is used for indentation. */
  'yaml-tab-indent': 'error',
  /** Aliases expand beyond the limit (billion laughs). */
  'yaml-alias-limit': 'error',
  /** The document nests deeper than the analysis allows. */
  'yaml-too-deep': 'error',
  /** A document holds more YAML values than the analysis allows (limits.ts); it was not analysed. */
  'document-too-large': 'information',
  /** The analysis stopped before the end of the file (time budget, documents or values per file). */
  'analysis-incomplete': 'information',
  /** The file is larger than kubeForesight.maxFileSizeKB and was not analysed. */
  'file-too-large': 'information',
  /** The file contains a NUL byte or other binary content and was not analysed. */
  'file-not-text': 'information',
  /** Documents of the file are template text ({{ … }} as structure, or naming Helm's objects) and were not analysed. */
  'helm-template-skipped': 'information',
  /** A Helm chart folder (Chart.yaml beside templates/), or a file in one, is a template skipped as a unit. */
  'helm-chart-skipped': 'information',
  /** A kustomization met without kustomize (kubectl or kustomize on PATH): the editor reads the open file raw. */
  'kustomize-not-found': 'information',
  /** A kustomization names remote bases: not rendered (it would fetch them) unless allowed (editor). */
  'kustomize-remote-refused': 'information',
  /** kustomize could not render a kustomization folder or overlay; its message is the finding's (CLI, editor). */
  'kustomize-render-failed': 'error',
  /**
   * An apply unit (a kustomization: `kubectl apply -k`) that could not be rendered: a remote base not allowed, no
   * kustomize, a failed render. Its files are never read raw instead, so nothing unchecked passes (CLI).
   */
  'unit-not-rendered': 'error',
  /**
   * Files beside a kustomization that it does not list (directly or through its bases, components and patches):
   * no apply applies them, so they are not checked as manifests (one note per folder in the CLI; the editor).
   */
  'unit-file-unlisted': 'information',
  /** A GitOps definition's path (Argo CD Application, Flux Kustomization) is not a folder of this repository. */
  'gitops-path-missing': 'warning',
  /** A GitOps definition applies what is not in this workspace (another repository, a chart, a plugin): not checked. */
  'gitops-source-not-checked': 'information',
  /** A GitOps definition sets options that change its render and that are not applied here; they are named. */
  'gitops-option-not-applied': 'information',
  /** Documents of a file of Kubernetes objects are not objects (no apiVersion and kind): kubectl refuses them. */
  'document-not-an-object': 'information',
  /** The same object is defined again later: sequential kubectl apply keeps the later definition. */
  'duplicate-object': 'warning',
  /**
   * Two apply units simulated together (`-R` over overlays of one base, or folders of alternative installs) define
   * the same objects: each is an apply of its own, so they are not duplicates, but applied in turn the later one is
   * what is simulated.
   */
  'kustomizations-overlap': 'information',
  /** metadata.generateName without a name: kubectl apply refuses it. */
  'generate-name-with-apply': 'error',
  /**
   * An Argo CD hook that a successful sync does not create (`Skip`, `SyncFail`, `PostDelete`, or a type of no sync
   * phase such as a Helm `test` hook): left out of the apply.
   */
  'gitops-hook-not-applied': 'information',
  /** An object names another namespace than `-n/--namespace`: kubectl apply -n refuses it. */
  'namespace-mismatch': 'error',
  /** The apiVersion or kind is not a built-in one, and the group is a built-in group. */
  'unknown-kind': 'error',
  /** A kind of a group that is neither built-in nor defined by a CustomResourceDefinition in the workspace. */
  'unknown-custom-kind': 'information',
  /** The apiVersion was removed in (or before) the selected Kubernetes version. */
  'removed-api-version': 'error',
  /** The apiVersion is still served but deprecated. */
  'deprecated-api-version': 'warning',
  /** A field has the wrong type. */
  'schema-type': 'error',
  /** A required field is missing. */
  'schema-required': 'error',
  /** A field is not part of the schema (strict field validation). */
  'schema-unknown-field': 'error',
  /** A value is not one of the allowed values. */
  'schema-enum': 'error',
  /** Any other schema constraint (minimum, maximum, …). */
  'schema-constraint': 'error',
  /** A CRD's x-kubernetes-validations rule (CEL) is false for a custom resource, or fails with "no such key". */
  'crd-validation-rule': 'error',
  /** A CRD's x-kubernetes-validations rule could not be evaluated here (a function we lack, the cost bound). */
  'crd-rule-not-evaluated': 'information',
  /** Two items of an x-kubernetes-list-type set, or of a map list with the same keys, in a custom resource. */
  'crd-list-duplicate': 'error',
  /**
   * A CustomResourceDefinition the API server refuses: its name, group, scope, versions or names, or a schema that
   * is not a valid structural OpenAPI v3 schema (ValidateCustomResourceDefinition).
   */
  'crd-definition-invalid': 'error',
  /** A resource quantity is malformed ("128mb"). */
  'invalid-quantity': 'error',
  /** A resource quantity is negative where the API server requires it to be non-negative. */
  'negative-quantity': 'error',
  /** A workload's selector does not match its pod template labels. */
  'selector-mismatch': 'error',
  /** metadata.name is not a valid DNS name for its kind. */
  'invalid-name': 'error',
  /** A label key is not a valid qualified name. */
  'invalid-label-key': 'error',
  /** A label value is not valid label syntax. */
  'invalid-label-value': 'error',
  /** Two containers of one pod have the same name. */
  'duplicate-container-name': 'error',
  /**
   * Two items of a built-in x-kubernetes-list-type map list with the same keys (two container ports 80/TCP), the
   * keys the list is merged by: server-side apply refuses a configuration that repeats them.
   */
  'list-map-duplicate': 'warning',
  /** A container has no image, or a Pod's container image has leading or trailing whitespace. */
  'invalid-container-image': 'error',
  /** A container port name is longer than 15 characters or not an IANA service name. */
  'invalid-port-name': 'error',
  /** A Service targetPort name that no selected container defines. */
  'target-port-not-found': 'warning',
  /**
   * Predicted: replicas of a workload that stay Pending, on the field that causes it. On a profile (the embedded
   * default included) the message names the assumed cluster.
   */
  'pod-unschedulable': 'warning',
  /**
   * Predicted on a capture (a cluster file with a Capture header): replicas of a workload that stay Pending. An
   * error, not a warning: the nodes are the real cluster's, so a real apply leaves them Pending too.
   */
  'pod-unschedulable-on-capture': 'error',
  /** Predicted: a further reason some nodes reject those replicas (minority causes). */
  'pod-unschedulable-cause': 'information',
  /** Predicted: the pods are BestEffort, first to be evicted under node pressure. */
  'best-effort-pod': 'information',
  /** Predicted: scheduling this pod preempts lower-priority pods. */
  'pod-preempts': 'information',
  /** Predicted: a rollout stalls (ProgressDeadlineExceeded), on its strategy. */
  'rollout-stalls': 'error',
  /** Predicted: a PodDisruptionBudget allows no voluntary disruption; drains of its pods' nodes never finish. */
  'pdb-blocks-disruptions': 'warning',
  /** Predicted: a PodDisruptionBudget selects no pod. */
  'pdb-selects-nothing': 'warning',
  /** Predicted: a pod is covered by two PodDisruptionBudgets, so the eviction API refuses to evict it. */
  'pdb-overlap': 'warning',
  /** Predicted: a scenario's kubectl drain never finishes (evictions refused) or fails (a pod it cannot delete). */
  'drain-blocked': 'error',
  /** Predicted: a scenario's kubectl drain is still waiting when the simulation ends. */
  'drain-unfinished': 'warning',
  /** Predicted: a rollout has not finished when the simulation ends. */
  'rollout-unfinished': 'warning',
  /** The folder has more objects than are simulated on every keystroke; predictions were skipped. */
  'predictions-skipped': 'information',

  // Predictions over simulated time (rollouts, disruption budgets, drains)
  /** A PodDisruptionBudget selects no simulated pod, in a namespace where an operator makes pods (not simulated). */
  'pdb-selects-operator-pods': 'information',
  /** A custom resource an operator turns into pods: those pods are not simulated. */
  'operator-pods-not-simulated': 'information',
  /** A PodDisruptionBudget is invalid (both or neither of minAvailable / maxUnavailable, a bad value). */
  'pdb-invalid': 'error',
  /** The disruption controller cannot compute a budget (a percentage over pods without a scalable controller). */
  'pdb-sync-failed': 'warning',
  /** A kubectl drain fails: a pod it cannot delete (no controller, local storage, DaemonSet). */
  'drain-failed': 'error',
  /** A StatefulSet pod stays Terminating on a failed node: its ordinal is not recreated. */
  'statefulset-pod-stuck': 'warning',
  /** A pod of the initial state does not fit the cluster. */
  'initial-pod-unschedulable': 'warning',
  /** A workload field the controllers read is invalid (maxSurge "abc"). */
  'workload-invalid-strategy': 'error',
  /** A NodeGroup document of the cluster file is invalid (sizes, template, selector): it is left out. */
  'node-group-invalid': 'error',
  /** The cluster autoscaler's priority-expander ConfigMap cannot be loaded: its expander chooses no group. */
  'autoscaler-config-invalid': 'warning',
  /** A scenario step or setting is invalid or names something the cluster lacks. */
  'scenario-invalid': 'error',

  /** Predicted: the API server refuses the object, or the pods its controller creates (report's rejected[]). */
  'admission-refused': 'error',
  /**
   * Predicted: the API server refuses some of a workload's pods while others exist (a quota reached midway), or
   * refused them for a while before all were created.
   */
  'admission-refused-partly': 'warning',
  /**
   * Predicted: the pods are placed but never start: a volume's ConfigMap or Secret (or key) is missing
   * (ContainerCreating, FailedMount), a container's image does not parse (InvalidImageName) or its env reads a
   * missing one (CreateContainerConfigError).
   */
  'container-cannot-start': 'error',
  /**
   * Predicted: a PersistentVolumeClaim that binds at once stays Pending (its StorageClass does not exist, or no
   * volume fits it and nothing provisions one), so the pods using it stay Pending.
   */
  'claim-pending': 'error',
  /**
   * Predicted: a Job fails (its Failed condition: BackoffLimitExceeded, DeadlineExceeded, a podFailurePolicy
   * FailJob rule, failed indexes), or Jobs a CronJob creates fail.
   */
  'job-fails': 'error',
  /**
   * Predicted: a HorizontalPodAutoscaler cannot compute its cpu utilization under the scenario's load (a container
   * of its target's pods has no cpu request: FailedGetResourceMetric), so it never scales.
   */
  'hpa-cannot-compute': 'warning',
  /**
   * Predicted: pods stay Pending until the cluster autoscaler adds nodes to a node group for them, then schedule
   * (how long, which group, its size before and after, its maximum).
   */
  'pod-waits-for-scale-up': 'information',
  /**
   * Predicted: Pending pods the cluster autoscaler cannot help: no node group's template fits them, or the groups
   * that would are at their maximum size (cluster-autoscaler's "pod didn't trigger scale-up" reasons).
   */
  'pod-no-scale-up': 'warning',
  /** Predicted: the apply gets Pod Security's warning ("would violate PodSecurity …"), enforce or warn level. */
  'pod-security-warning': 'warning',

  // The engine about its input (cluster files, pods, objects it ignores)
  /** The apply's namespace is not in the cluster nor the manifests, and the cluster cannot say it lacks it. */
  'namespace-not-found': 'warning',
  /** A pod template's service account is not in the manifests; the cluster is assumed to have it. */
  'service-account-assumed': 'information',
  /** A StorageClass a claim names is unknown and the cluster file lists none: it is assumed to exist. */
  'storage-class-assumed': 'information',
  /**
   * A PersistentVolumeClaim a pod uses is not in the manifests and the cluster file does not list that
   * namespace's claims: it is assumed to exist, bound.
   */
  'claim-assumed': 'information',
  /**
   * A ConfigMap or Secret a pod reads is not in the manifests and the cluster file does not list that namespace's
   * objects of its kind: it is assumed to exist.
   */
  'config-object-assumed': 'information',
  /**
   * A capture's header (kind Capture, apiVersion foresight/v1) cannot be read in part: a field is malformed or a
   * listed kind is not one the simulation reads; what cannot be read is ignored.
   */
  'capture-header-invalid': 'warning',
  /**
   * The captured API server runs another Kubernetes version than the one predicted with (one given explicitly, or
   * the nearest supported when the server's is outside them).
   */
  'capture-version-differs': 'information',
  /** The cluster has no Node. */
  'cluster-no-nodes': 'error',
  /** A Node has no status.allocatable. */
  'node-missing-allocatable': 'error',
  /** A Node's status.allocatable lacks "pods": the node accepts no pod. */
  'node-allocatable-incomplete': 'warning',
  /** A taint lacks a key or has no valid effect. */
  'invalid-taint': 'error',
  /** An object lacks metadata.name. */
  'missing-name': 'error',
  /** A pod is bound (spec.nodeName) to a node the cluster does not have. */
  'pod-bound-to-missing-node': 'error',
  /** A pod names a PriorityClass that does not exist. */
  'unknown-priority-class': 'error',
  /** A field has the wrong type. */
  'invalid-field': 'error',
  /** An object of a kind the engine ignores. */
  'ignored-object': 'information',
  /** A scheduler profile names a plugin the engine does not model. */
  'plugin-not-modelled': 'information',
  /** A scheduler plugin's arguments are invalid; defaults were used. */
  'invalid-plugin-args': 'warning',
  /** An object is not a Kubernetes object (no kind, or not a mapping). */
  'not-an-object': 'error',
  /** A pod could not be read for scheduling (its spec is not an object). */
  'invalid-pod': 'error',
  /** The cluster file's workloads declare more pods than one simulation creates. */
  'too-many-pods': 'error',

  // Workloads as the API server and their controllers read them
  /** The workload has no metadata.name. */
  'workload-missing-name': 'error',
  /** spec.template is missing or not an object. */
  'workload-missing-template': 'error',
  /** spec.selector is required and missing. */
  'workload-missing-selector': 'error',
  /** spec.selector has no requirement at all. */
  'workload-empty-selector': 'error',
  /** spec.selector is malformed (bad operator, missing values). */
  'workload-invalid-selector': 'error',
  /** spec.selector does not select the template's labels. */
  'workload-selector-mismatch': 'error',
  /** A count (replicas, parallelism, completions) is negative. */
  'workload-negative-count': 'error',
  /** A field has the wrong type (replicas: "3"). */
  'workload-invalid-field': 'error',
  /** A Job sets spec.selector without spec.manualSelector. */
  'job-selector-not-auto-generated': 'error',
  /** An Indexed Job has no spec.completions. */
  'job-indexed-without-completions': 'error',
  /** A Job's pod template has a restartPolicy other than OnFailure or Never (Always by default). */
  'job-invalid-restart-policy': 'error',
  /** A DaemonSet gets no pod because no node is eligible. */
  'daemonset-no-eligible-node': 'information',
  /** The workloads ask for more pods than one simulation creates (ExpandOptions.maxPods); nothing was simulated. */
  'workload-too-many-pods': 'error',
  /** A Deployment created paused gets no ReplicaSet, so no pods. */
  'deployment-paused': 'information',

  // KubeSchedulerConfiguration, as kube-scheduler reads it at start-up
  /** apiVersion is not kubescheduler.config.k8s.io/v1 (v1beta2 and v1beta3 were removed in 1.28 and 1.29). */
  'scheduler-config-unsupported-version': 'error',
  /** A field has the wrong type or an out-of-range value; it is ignored. */
  'scheduler-config-invalid-field': 'error',
  /** Two profiles share a schedulerName, or a profile has none. */
  'scheduler-config-invalid-profile': 'error',
  /** A plugin name kube-scheduler does not know (it would not start); the engine leaves it out. */
  'scheduler-config-unknown-plugin': 'warning',
  /** A plugin removed from kube-scheduler (EBSLimits…); kube-scheduler would not start. */
  'scheduler-config-removed-plugin': 'error',
  /** A plugin enabled at an extension point it does not implement, or twice at one point. */
  'scheduler-config-misplaced-plugin': 'error',
  /** A score weight below zero; it is ignored. */
  'scheduler-config-invalid-weight': 'error',
  /** A plugin's args are invalid; that plugin's default args are used. */
  'scheduler-config-invalid-plugin-args': 'error',
} as const satisfies Record<string, FindingSeverity>;

/** A stable finding code. */
export type FindingCode = keyof typeof FINDING_CODES;

/**
 * The codes that predict an outcome of applying valid input (a pod that stays Pending, an object the API server
 * refuses, a drain that never finishes, a stalled rollout, a budget that blocks everything), as opposed to those
 * that say the input itself is wrong. An outcome reported on a cluster file's scenario is the prediction working,
 * not a broken cluster file; `--fail-on prediction` counts an error of these as a predicted failure.
 */
const PREDICTED_OUTCOME_CODES: ReadonlySet<string> = new Set<FindingCode>([
  'pdb-selects-nothing',
  'pdb-selects-operator-pods',
  'pdb-overlap',
  'pdb-blocks-disruptions',
  'pdb-sync-failed',
  'rollout-stalls',
  'rollout-unfinished',
  'drain-blocked',
  'drain-unfinished',
  'drain-failed',
  'statefulset-pod-stuck',
  'initial-pod-unschedulable',
  'container-cannot-start',
  'claim-pending',
  'job-fails',
  'hpa-cannot-compute',
  'pod-waits-for-scale-up',
  'pod-no-scale-up',
]);

/** Whether a finding code is a predicted outcome rather than a problem of the input. */
export function isPredictedOutcome(code: string): boolean {
  return PREDICTED_OUTCOME_CODES.has(code);
}
