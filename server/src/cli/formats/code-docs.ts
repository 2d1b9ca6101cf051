/**
 * What each finding code means: the doc comment of its entry in protocol/finding-codes.ts, for the rules of the
 * SARIF output (the bundled CLI has no access to the comments). Generated: do not edit; run
 * `npx tsx test/cli/code-docs-source.ts --write` after changing protocol/finding-codes.ts
 * (test/cli/code-docs.test.ts fails until then).
 */
import type { FindingCode } from '../../../../protocol/finding-codes';

/** The meaning of each finding code. */
export const CODE_DOCS: Readonly<Record<FindingCode, string>> = {
  'yaml-syntax': 'The text is not valid YAML.',
  'yaml-duplicate-key':
    'A mapping has the same key twice. A warning, not an error: kubectl converts YAML to JSON leniently (sigs.k8s.io/yaml YAMLToJSON, not YAMLToJSONStrict), so the last value silently wins and the API server never sees the duplicate. kustomize (kubectl apply -k) refuses such a file.',
  'yaml-tab-indent': 'A tab is used for indentation.',
  'yaml-alias-limit': 'Aliases expand beyond the limit (billion laughs).',
  'yaml-too-deep': 'The document nests deeper than the analysis allows.',
  'document-too-large':
    'A document holds more YAML values than the analysis allows (limits.ts); it was not analysed.',
  'analysis-incomplete':
    'The analysis stopped before the end of the file (time budget, documents or values per file).',
  'file-too-large': 'The file is larger than kubeForesight.maxFileSizeKB and was not analysed.',
  'file-not-text': 'The file contains a NUL byte or other binary content and was not analysed.',
  'helm-template-skipped':
    "Documents of the file are template text ({{ … }} as structure, or naming Helm's objects) and were not analysed.",
  'helm-chart-skipped':
    'A Helm chart folder (Chart.yaml beside templates/), or a file in one, is a template skipped as a unit.',
  'kustomize-not-found':
    'A kustomization met without kustomize (kubectl or kustomize on PATH): the editor reads the open file raw.',
  'kustomize-remote-refused':
    'A kustomization names remote bases: not rendered (it would fetch them) unless allowed (editor).',
  'kustomize-render-failed':
    "kustomize could not render a kustomization folder or overlay; its message is the finding's (CLI, editor).",
  'unit-not-rendered':
    'An apply unit (a kustomization: `kubectl apply -k`) that could not be rendered: a remote base not allowed, no kustomize, a failed render. Its files are never read raw instead, so nothing unchecked passes (CLI).',
  'unit-file-unlisted':
    'Files beside a kustomization that it does not list (directly or through its bases, components and patches): no apply applies them, so they are not checked as manifests (one note per folder in the CLI; the editor).',
  'gitops-path-missing':
    "A GitOps definition's path (Argo CD Application, Flux Kustomization) is not a folder of this repository.",
  'gitops-source-not-checked':
    'A GitOps definition applies what is not in this workspace (another repository, a chart, a plugin): not checked.',
  'gitops-option-not-applied':
    'A GitOps definition sets options that change its render and that are not applied here; they are named.',
  'document-not-an-object':
    'Documents of a file of Kubernetes objects are not objects (no apiVersion and kind): kubectl refuses them.',
  'duplicate-object':
    'The same object is defined again later: sequential kubectl apply keeps the later definition.',
  'kustomizations-overlap':
    'Two apply units simulated together (`-R` over overlays of one base, or folders of alternative installs) define the same objects: each is an apply of its own, so they are not duplicates, but applied in turn the later one is what is simulated.',
  'generate-name-with-apply': 'metadata.generateName without a name: kubectl apply refuses it.',
  'gitops-hook-not-applied':
    'An Argo CD hook that a successful sync does not create (`Skip`, `SyncFail`, `PostDelete`, or a type of no sync phase such as a Helm `test` hook): left out of the apply.',
  'namespace-mismatch':
    'An object names another namespace than `-n/--namespace`: kubectl apply -n refuses it.',
  'unknown-kind': 'The apiVersion or kind is not a built-in one, and the group is a built-in group.',
  'unknown-custom-kind':
    'A kind of a group that is neither built-in nor defined by a CustomResourceDefinition in the workspace.',
  'removed-api-version': 'The apiVersion was removed in (or before) the selected Kubernetes version.',
  'deprecated-api-version': 'The apiVersion is still served but deprecated.',
  'schema-type': 'A field has the wrong type.',
  'schema-required': 'A required field is missing.',
  'schema-unknown-field': 'A field is not part of the schema (strict field validation).',
  'schema-enum': 'A value is not one of the allowed values.',
  'schema-constraint': 'Any other schema constraint (minimum, maximum, …).',
  'crd-validation-rule':
    'A CRD\'s x-kubernetes-validations rule (CEL) is false for a custom resource, or fails with "no such key".',
  'crd-rule-not-evaluated':
    "A CRD's x-kubernetes-validations rule could not be evaluated here (a function we lack, the cost bound).",
  'crd-list-duplicate':
    'Two items of an x-kubernetes-list-type set, or of a map list with the same keys, in a custom resource.',
  'crd-definition-invalid':
    'A CustomResourceDefinition the API server refuses: its name, group, scope, versions or names, or a schema that is not a valid structural OpenAPI v3 schema (ValidateCustomResourceDefinition).',
  'invalid-quantity': 'A resource quantity is malformed ("128mb").',
  'negative-quantity': 'A resource quantity is negative where the API server requires it to be non-negative.',
  'selector-mismatch': "A workload's selector does not match its pod template labels.",
  'invalid-name': 'metadata.name is not a valid DNS name for its kind.',
  'invalid-label-key': 'A label key is not a valid qualified name.',
  'invalid-label-value': 'A label value is not valid label syntax.',
  'duplicate-container-name': 'Two containers of one pod have the same name.',
  'list-map-duplicate':
    'Two items of a built-in x-kubernetes-list-type map list with the same keys (two container ports 80/TCP), the keys the list is merged by: server-side apply refuses a configuration that repeats them.',
  'invalid-container-image':
    "A container has no image, or a Pod's container image has leading or trailing whitespace.",
  'invalid-port-name': 'A container port name is longer than 15 characters or not an IANA service name.',
  'target-port-not-found': 'A Service targetPort name that no selected container defines.',
  'pod-unschedulable':
    'Predicted: replicas of a workload that stay Pending, on the field that causes it. On a profile (the embedded default included) the message names the assumed cluster.',
  'pod-unschedulable-on-capture':
    "Predicted on a capture (a cluster file with a Capture header): replicas of a workload that stay Pending. An error, not a warning: the nodes are the real cluster's, so a real apply leaves them Pending too.",
  'pod-unschedulable-cause':
    'Predicted: a further reason some nodes reject those replicas (minority causes).',
  'best-effort-pod': 'Predicted: the pods are BestEffort, first to be evicted under node pressure.',
  'pod-preempts': 'Predicted: scheduling this pod preempts lower-priority pods.',
  'rollout-stalls': 'Predicted: a rollout stalls (ProgressDeadlineExceeded), on its strategy.',
  'pdb-blocks-disruptions':
    "Predicted: a PodDisruptionBudget allows no voluntary disruption; drains of its pods' nodes never finish.",
  'pdb-selects-nothing': 'Predicted: a PodDisruptionBudget selects no pod.',
  'pdb-overlap':
    'Predicted: a pod is covered by two PodDisruptionBudgets, so the eviction API refuses to evict it.',
  'drain-blocked':
    "Predicted: a scenario's kubectl drain never finishes (evictions refused) or fails (a pod it cannot delete).",
  'drain-unfinished': "Predicted: a scenario's kubectl drain is still waiting when the simulation ends.",
  'rollout-unfinished': 'Predicted: a rollout has not finished when the simulation ends.',
  'predictions-skipped':
    'The folder has more objects than are simulated on every keystroke; predictions were skipped.',
  'pdb-selects-operator-pods':
    'A PodDisruptionBudget selects no simulated pod, in a namespace where an operator makes pods (not simulated).',
  'operator-pods-not-simulated':
    'A custom resource an operator turns into pods: those pods are not simulated.',
  'pdb-invalid':
    'A PodDisruptionBudget is invalid (both or neither of minAvailable / maxUnavailable, a bad value).',
  'pdb-sync-failed':
    'The disruption controller cannot compute a budget (a percentage over pods without a scalable controller).',
  'drain-failed': 'A kubectl drain fails: a pod it cannot delete (no controller, local storage, DaemonSet).',
  'statefulset-pod-stuck':
    'A StatefulSet pod stays Terminating on a failed node: its ordinal is not recreated.',
  'initial-pod-unschedulable': 'A pod of the initial state does not fit the cluster.',
  'workload-invalid-strategy': 'A workload field the controllers read is invalid (maxSurge "abc").',
  'node-group-invalid':
    'A NodeGroup document of the cluster file is invalid (sizes, template, selector): it is left out.',
  'autoscaler-config-invalid':
    "The cluster autoscaler's priority-expander ConfigMap cannot be loaded: its expander chooses no group.",
  'scenario-invalid': 'A scenario step or setting is invalid or names something the cluster lacks.',
  'admission-refused':
    "Predicted: the API server refuses the object, or the pods its controller creates (report's rejected[]).",
  'admission-refused-partly':
    "Predicted: the API server refuses some of a workload's pods while others exist (a quota reached midway), or refused them for a while before all were created.",
  'container-cannot-start':
    "Predicted: the pods are placed but never start: a volume's ConfigMap or Secret (or key) is missing (ContainerCreating, FailedMount), a container's image does not parse (InvalidImageName) or its env reads a missing one (CreateContainerConfigError).",
  'claim-pending':
    'Predicted: a PersistentVolumeClaim that binds at once stays Pending (its StorageClass does not exist, or no volume fits it and nothing provisions one), so the pods using it stay Pending.',
  'job-fails':
    'Predicted: a Job fails (its Failed condition: BackoffLimitExceeded, DeadlineExceeded, a podFailurePolicy FailJob rule, failed indexes), or Jobs a CronJob creates fail.',
  'hpa-cannot-compute':
    "Predicted: a HorizontalPodAutoscaler cannot compute its cpu utilization under the scenario's load (a container of its target's pods has no cpu request: FailedGetResourceMetric), so it never scales.",
  'pod-waits-for-scale-up':
    'Predicted: pods stay Pending until the cluster autoscaler adds nodes to a node group for them, then schedule (how long, which group, its size before and after, its maximum).',
  'pod-no-scale-up':
    "Predicted: Pending pods the cluster autoscaler cannot help: no node group's template fits them, or the groups that would are at their maximum size (cluster-autoscaler's \"pod didn't trigger scale-up\" reasons).",
  'pod-security-warning':
    'Predicted: the apply gets Pod Security\'s warning ("would violate PodSecurity …"), enforce or warn level.',
  'namespace-not-found':
    "The apply's namespace is not in the cluster nor the manifests, and the cluster cannot say it lacks it.",
  'service-account-assumed':
    "A pod template's service account is not in the manifests; the cluster is assumed to have it.",
  'storage-class-assumed':
    'A StorageClass a claim names is unknown and the cluster file lists none: it is assumed to exist.',
  'claim-assumed':
    "A PersistentVolumeClaim a pod uses is not in the manifests and the cluster file does not list that namespace's claims: it is assumed to exist, bound.",
  'config-object-assumed':
    "A ConfigMap or Secret a pod reads is not in the manifests and the cluster file does not list that namespace's objects of its kind: it is assumed to exist.",
  'capture-header-invalid':
    "A capture's header (kind Capture, apiVersion foresight/v1) cannot be read in part: a field is malformed or a listed kind is not one the simulation reads; what cannot be read is ignored.",
  'capture-version-differs':
    "The captured API server runs another Kubernetes version than the one predicted with (one given explicitly, or the nearest supported when the server's is outside them).",
  'cluster-no-nodes': 'The cluster has no Node.',
  'node-missing-allocatable': 'A Node has no status.allocatable.',
  'node-allocatable-incomplete': 'A Node\'s status.allocatable lacks "pods": the node accepts no pod.',
  'invalid-taint': 'A taint lacks a key or has no valid effect.',
  'missing-name': 'An object lacks metadata.name.',
  'pod-bound-to-missing-node': 'A pod is bound (spec.nodeName) to a node the cluster does not have.',
  'unknown-priority-class': 'A pod names a PriorityClass that does not exist.',
  'invalid-field': 'A field has the wrong type.',
  'ignored-object': 'An object of a kind the engine ignores.',
  'plugin-not-modelled': 'A scheduler profile names a plugin the engine does not model.',
  'invalid-plugin-args': "A scheduler plugin's arguments are invalid; defaults were used.",
  'not-an-object': 'An object is not a Kubernetes object (no kind, or not a mapping).',
  'invalid-pod': 'A pod could not be read for scheduling (its spec is not an object).',
  'too-many-pods': "The cluster file's workloads declare more pods than one simulation creates.",
  'workload-missing-name': 'The workload has no metadata.name.',
  'workload-missing-template': 'spec.template is missing or not an object.',
  'workload-missing-selector': 'spec.selector is required and missing.',
  'workload-empty-selector': 'spec.selector has no requirement at all.',
  'workload-invalid-selector': 'spec.selector is malformed (bad operator, missing values).',
  'workload-selector-mismatch': "spec.selector does not select the template's labels.",
  'workload-negative-count': 'A count (replicas, parallelism, completions) is negative.',
  'workload-invalid-field': 'A field has the wrong type (replicas: "3").',
  'job-selector-not-auto-generated': 'A Job sets spec.selector without spec.manualSelector.',
  'job-indexed-without-completions': 'An Indexed Job has no spec.completions.',
  'job-invalid-restart-policy':
    "A Job's pod template has a restartPolicy other than OnFailure or Never (Always by default).",
  'daemonset-no-eligible-node': 'A DaemonSet gets no pod because no node is eligible.',
  'workload-too-many-pods':
    'The workloads ask for more pods than one simulation creates (ExpandOptions.maxPods); nothing was simulated.',
  'deployment-paused': 'A Deployment created paused gets no ReplicaSet, so no pods.',
  'scheduler-config-unsupported-version':
    'apiVersion is not kubescheduler.config.k8s.io/v1 (v1beta2 and v1beta3 were removed in 1.28 and 1.29).',
  'scheduler-config-invalid-field': 'A field has the wrong type or an out-of-range value; it is ignored.',
  'scheduler-config-invalid-profile': 'Two profiles share a schedulerName, or a profile has none.',
  'scheduler-config-unknown-plugin':
    'A plugin name kube-scheduler does not know (it would not start); the engine leaves it out.',
  'scheduler-config-removed-plugin':
    'A plugin removed from kube-scheduler (EBSLimits…); kube-scheduler would not start.',
  'scheduler-config-misplaced-plugin':
    'A plugin enabled at an extension point it does not implement, or twice at one point.',
  'scheduler-config-invalid-weight': 'A score weight below zero; it is ignored.',
  'scheduler-config-invalid-plugin-args': "A plugin's args are invalid; that plugin's default args are used.",
};
