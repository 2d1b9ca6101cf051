/**
 * Jobs and CronJobs.
 *
 * A Job starts min(parallelism, completions) pods (parallelism alone when completions is unset; both default to
 * 1; none while suspended), named "<job>-<5 characters>", or "<job>-<index>-<5 characters>" for Indexed Jobs.
 * The API server adds the labels batch.kubernetes.io/job-name, job-name, batch.kubernetes.io/controller-uid and
 * controller-uid to the template (generateSelector); the Job controller adds the tracking finalizer and, for
 * Indexed Jobs, the completion index (annotation, label, hostname "<job>-<index>" and JOB_COMPLETION_INDEX).
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/job/job_controller.go
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/job/indexed_job_utils.go
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/registry/batch/job/strategy.go
 *
 * A CronJob creates a Job named "<cronjob>-<scheduled time in minutes since the epoch>". The simulation has no
 * wall clock, so every CronJob is taken to fire once at CRONJOB_PLACEHOLDER_TIME, whatever its schedule.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/cronjob/utils.go
 */
import type { ExpandContext } from './context';
import { addPod } from './context';
import { WORKLOAD_MESSAGES } from './findings';
import { seededUid } from './hash';
import type { JsonObject } from '../model/json';
import { asArray, asObject, cloneJson, readString } from '../model/json';
import { MAX_GENERATED_NAME_LENGTH, podsPrefix } from './names';
import { controllerReference, podFromTemplate } from './pod-builder';
import type { ControllerReference } from './pod-builder';
import type { Workload } from './workload';
import {
  checkSelector,
  isWorkloadRejected,
  ownerOf,
  readCount,
  readTemplate,
  templateSource,
} from './workload';
import { engineFinding } from '../model/findings';

/** The fixed time at which every CronJob is taken to fire. */
export const CRONJOB_PLACEHOLDER_TIME = '2025-01-01T00:00:00Z';
/** CRONJOB_PLACEHOLDER_TIME in minutes since the Unix epoch (1735689600 s / 60): the suffix of the Job's name. */
const CRONJOB_PLACEHOLDER_MINUTES = 28_928_160;

/** Annotation (and label) with an Indexed Job pod's completion index. */
export const JOB_COMPLETION_INDEX_ANNOTATION = 'batch.kubernetes.io/job-completion-index';
/** The finalizer that lets the Job controller count finished pods. */
export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';

/** Expands a Job into the pods it starts with. */
export function expandJob(workload: Workload, context: ExpandContext): void {
  const job = { name: workload.name, uid: workload.uid, specPath: ['spec'] };
  expandJobSpec(workload, context, job, controllerReference('batch/v1', 'Job', workload.name, workload.uid));
}

/** Expands a CronJob into the pods of the Job it creates at CRONJOB_PLACEHOLDER_TIME (none while suspended). */
export function expandCronJob(workload: Workload, context: ExpandContext): void {
  if (readTemplate(workload, ['spec', 'jobTemplate']) === null || workload.spec['suspend'] === true) {
    return;
  }
  const name = `${workload.name}-${CRONJOB_PLACEHOLDER_MINUTES}`;
  const uid = seededUid(`Job/${workload.namespace}/${name}`);
  const job = { name, uid, specPath: ['spec', 'jobTemplate', 'spec'] };
  expandJobSpec(workload, context, job, controllerReference('batch/v1', 'Job', name, uid));
}

interface JobIdentity {
  readonly name: string;
  readonly uid: string;
  /** Where the JobSpec sits in the object the user wrote. */
  readonly specPath: readonly string[];
}

function expandJobSpec(
  workload: Workload,
  context: ExpandContext,
  job: JobIdentity,
  owner: ControllerReference,
) {
  const spec = readAt(workload.spec, job.specPath.slice(1));
  const specField = job.specPath.join('.');
  const templatePath = [...job.specPath, 'template'];
  const template = readTemplate(workload, templatePath);
  const parallelism = readCount(workload, [...job.specPath, 'parallelism'], 1);
  const completions = readCount(workload, [...job.specPath, 'completions'], -1);
  const isIndexed = spec['completionMode'] === 'Indexed';
  if (template !== null) {
    checkJobTemplate(workload, template, spec, job, templatePath);
  }
  if (isIndexed && completions === -1) {
    const message = WORKLOAD_MESSAGES.indexedWithoutCompletions(workload.label, specField);
    workload.findings.push(
      engineFinding('job-indexed-without-completions', workload.source, job.specPath, message),
    );
  }
  if (template === null || parallelism === null || completions === null || isWorkloadRejected(workload)) {
    return;
  }
  if (spec['suspend'] === true) {
    return;
  }
  const active = completions === -1 ? parallelism : Math.min(parallelism, completions);
  const jobLabels = spec['manualSelector'] === true ? {} : generatedJobLabels(job);
  const source = templateSource(workload, templatePath);
  for (let index = 0; index < active; index++) {
    const podSpec = cloneJson(asObject(template['spec']));
    const extraLabels: Record<string, string> = { ...jobLabels };
    const extraAnnotations: Record<string, string> = {};
    let generateName = podsPrefix(job.name);
    if (isIndexed) {
      extraAnnotations[JOB_COMPLETION_INDEX_ANNOTATION] = String(index);
      extraLabels[JOB_COMPLETION_INDEX_ANNOTATION] = String(index);
      if (spec['backoffLimitPerIndex'] !== undefined && spec['backoffLimitPerIndex'] !== null) {
        extraAnnotations['batch.kubernetes.io/job-index-failure-count'] = '0';
      }
      podSpec['hostname'] = `${job.name}-${index}`;
      addCompletionIndexEnv(podSpec);
      generateName = indexedGenerateName(job.name, index);
    }
    const name = context.names.generate(workload.namespace, generateName, `${job.uid}/${index}`);
    const identity = {
      name,
      generateName,
      namespace: workload.namespace,
      ownerReference: owner,
      extraLabels,
      extraAnnotations,
      extraFinalizers: [JOB_TRACKING_FINALIZER],
    };
    addPod(context, {
      pod: podFromTemplate(template, identity, podSpec),
      owner: ownerOf(workload),
      source,
      replicaIndex: index,
    });
  }
}

/** The API server's checks of a Job's selector and restart policy. */
function checkJobTemplate(
  workload: Workload,
  template: JsonObject,
  spec: JsonObject,
  job: JobIdentity,
  templatePath: readonly string[],
): void {
  const specField = job.specPath.join('.');
  if (spec['manualSelector'] === true) {
    checkSelector(workload, template, {
      selectorPath: [...job.specPath, 'selector'],
      labelsPath: [...templatePath, 'metadata', 'labels'],
      isRequired: true,
    });
  } else if (spec['selector'] !== undefined && spec['selector'] !== null) {
    const message = WORKLOAD_MESSAGES.jobSelectorNotGenerated(workload.label, specField);
    const path = [...job.specPath, 'selector'];
    workload.findings.push(engineFinding('job-selector-not-auto-generated', workload.source, path, message));
  }
  // SetDefaults_PodSpec makes a missing restartPolicy "Always", which a Job does not accept.
  const restartPolicy = readString(asObject(template['spec'])['restartPolicy']) ?? 'Always';
  if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') {
    const path = [...templatePath, 'spec', 'restartPolicy'];
    const message = WORKLOAD_MESSAGES.jobRestartPolicy(workload.label, path.join('.'), restartPolicy);
    const findingPath = template['spec'] !== undefined ? path : [...templatePath];
    workload.findings.push(
      engineFinding('job-invalid-restart-policy', workload.source, findingPath, message),
    );
  }
}

/** The labels generateSelector puts on a Job's template (and so on its pods). */
export function generatedJobLabels(job: {
  readonly name: string;
  readonly uid: string;
}): Record<string, string> {
  return {
    'batch.kubernetes.io/controller-uid': job.uid,
    'batch.kubernetes.io/job-name': job.name,
    'controller-uid': job.uid,
    'job-name': job.name,
  };
}

/** podGenerateNameWithIndex: "<job>-<index>-", the job name cut so that the whole stays within 58 characters. */
export function indexedGenerateName(jobName: string, index: number): string {
  const appendIndex = `-${index}-`;
  const prefix = jobName + appendIndex;
  if (prefix.length <= MAX_GENERATED_NAME_LENGTH) {
    return prefix;
  }
  return prefix.slice(0, MAX_GENERATED_NAME_LENGTH - appendIndex.length) + appendIndex;
}

/** addCompletionIndexEnvVariables: JOB_COMPLETION_INDEX from the annotation, in every (init) container. */
export function addCompletionIndexEnv(podSpec: JsonObject): void {
  for (const field of ['initContainers', 'containers']) {
    for (const item of asArray(podSpec[field])) {
      const container = asObject(item);
      const env = asArray(container['env']).slice();
      if (env.some((entry) => asObject(entry)['name'] === 'JOB_COMPLETION_INDEX')) {
        continue;
      }
      env.push({
        name: 'JOB_COMPLETION_INDEX',
        valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${JOB_COMPLETION_INDEX_ANNOTATION}']` } },
      });
      container['env'] = env;
    }
  }
}

function readAt(value: JsonObject, path: readonly string[]): JsonObject {
  let current: unknown = value;
  for (const key of path) {
    current = asObject(current)[key];
  }
  return asObject(current);
}
