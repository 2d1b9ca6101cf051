/**
 * A stand-in for a Kubernetes API server, on 127.0.0.1, that answers what the real kubectl asks when `foresight
 * capture` runs it: discovery (/api, /apis, each group version's resource list), /version, and the list of each
 * resource, in the API server's wire format. No API server can be installed where the tests run, so the tests
 * drive the real kubectl against this instead.
 *
 * The shapes follow Kubernetes' own API documents: the resource lists are apimachinery's discovery types
 * (metav1.APIVersions, APIGroupList, APIResourceList: name, singularName, namespaced, kind, verbs), each served
 * resource with the path, namespacing and group-version-kind that the pinned OpenAPI documents give it
 * (../shared/kubernetes-openapi/v3/1.35; stand-in-api-server.test.ts checks them against those documents); a list
 * is the kind's `<Kind>List` (apiVersion, kind, metadata.resourceVersion, items); /version is version.Info; a
 * refusal is a metav1.Status with the API server's Forbidden message. kubectl's aggregated discovery is not
 * offered (the answer is plain application/json), so kubectl falls back to the legacy discovery documents, as it
 * does against an API server that predates aggregated discovery.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One resource the stand-in serves. */
export interface StandInResource {
  readonly group: string;
  readonly version: string;
  /** The plural name ("pods"). */
  readonly name: string;
  readonly singularName: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly shortNames?: readonly string[];
}

/** The resources served: the built-in ones `foresight capture` lists, as Kubernetes 1.35 serves them. */
export const STAND_IN_RESOURCES: readonly StandInResource[] = [
  core('nodes', 'node', 'Node', false, ['no']),
  core('namespaces', 'namespace', 'Namespace', false, ['ns']),
  core('persistentvolumes', 'persistentvolume', 'PersistentVolume', false, ['pv']),
  core('pods', 'pod', 'Pod', true, ['po']),
  core('replicationcontrollers', 'replicationcontroller', 'ReplicationController', true, ['rc']),
  core('persistentvolumeclaims', 'persistentvolumeclaim', 'PersistentVolumeClaim', true, ['pvc']),
  core('limitranges', 'limitrange', 'LimitRange', true, ['limits']),
  core('resourcequotas', 'resourcequota', 'ResourceQuota', true, ['quota']),
  core('serviceaccounts', 'serviceaccount', 'ServiceAccount', true, ['sa']),
  core('services', 'service', 'Service', true, ['svc']),
  core('configmaps', 'configmap', 'ConfigMap', true, ['cm']),
  core('secrets', 'secret', 'Secret', true),
  named('apps', 'v1', 'deployments', 'deployment', 'Deployment', true, ['deploy']),
  named('apps', 'v1', 'replicasets', 'replicaset', 'ReplicaSet', true, ['rs']),
  named('apps', 'v1', 'statefulsets', 'statefulset', 'StatefulSet', true, ['sts']),
  named('apps', 'v1', 'daemonsets', 'daemonset', 'DaemonSet', true, ['ds']),
  named('apps', 'v1', 'controllerrevisions', 'controllerrevision', 'ControllerRevision', true),
  named('batch', 'v1', 'jobs', 'job', 'Job', true),
  named('batch', 'v1', 'cronjobs', 'cronjob', 'CronJob', true, ['cj']),
  named('policy', 'v1', 'poddisruptionbudgets', 'poddisruptionbudget', 'PodDisruptionBudget', true, ['pdb']),
  named(
    'autoscaling',
    'v2',
    'horizontalpodautoscalers',
    'horizontalpodautoscaler',
    'HorizontalPodAutoscaler',
    true,
    ['hpa'],
  ),
  named('scheduling.k8s.io', 'v1', 'priorityclasses', 'priorityclass', 'PriorityClass', false, ['pc']),
  named('storage.k8s.io', 'v1', 'storageclasses', 'storageclass', 'StorageClass', false, ['sc']),
  named('storage.k8s.io', 'v1', 'csinodes', 'csinode', 'CSINode', false),
];

/** What the stand-in holds and how it behaves. */
export interface StandInOptions {
  /** The objects it lists, each with apiVersion and kind. */
  readonly objects: readonly Record<string, unknown>[];
  /** The gitVersion /version reports ("v1.34.2"). */
  readonly gitVersion: string;
  /** Plural names of resources the user may not list: 403 Forbidden. */
  readonly forbidden?: readonly string[];
  /** Plural names of resources whose list fails inside the server: 500 InternalError. */
  readonly failing?: readonly string[];
}

/** A running stand-in. */
export interface StandInServer {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  /** Every request's method and path (with its query), in order. */
  readonly requests: readonly string[];
  close(): Promise<void>;
}

/** The user the kubeconfig names (in the Forbidden message, as the API server names the requester). */
export const STAND_IN_USER = 'capture-test';

/** Starts a stand-in on a free port of the loopback interface. */
export async function startStandIn(options: StandInOptions): Promise<StandInServer> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    requests.push(`${request.method ?? 'GET'} ${request.url ?? ''}`);
    answer(request, response, options);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}

/** A kubeconfig whose only context reaches `url` as STAND_IN_USER. */
export function standInKubeconfig(url: string, context: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: stand-in`,
    `  cluster: {server: "${url}"}`,
    'users:',
    `- name: ${STAND_IN_USER}`,
    '  user: {token: stand-in-token}',
    'contexts:',
    `- name: ${context}`,
    `  context: {cluster: stand-in, user: ${STAND_IN_USER}}`,
    `current-context: ${context}`,
    '',
  ].join('\n');
}

function answer(request: IncomingMessage, response: ServerResponse, options: StandInOptions): void {
  const url = new URL(request.url ?? '/', 'http://stand-in');
  const path = url.pathname.replace(/\/$/, '');
  if (request.method !== 'GET') {
    send(
      response,
      405,
      status(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource`),
    );
    return;
  }
  if (path === '/version') {
    send(response, 200, versionInfo(options.gitVersion));
    return;
  }
  if (path === '/api') {
    send(response, 200, {
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: url.host }],
    });
    return;
  }
  if (path === '/apis') {
    send(response, 200, { kind: 'APIGroupList', apiVersion: 'v1', groups: groups() });
    return;
  }
  const groupVersion = /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))$/.exec(path);
  if (groupVersion !== null) {
    const group = groupVersion[2] ?? '';
    const version = groupVersion[1] ?? groupVersion[3] ?? '';
    send(response, 200, resourceList(group, version));
    return;
  }
  const resource = STAND_IN_RESOURCES.find((entry) => listPaths(entry).includes(path));
  if (resource === undefined) {
    send(response, 404, status(404, 'NotFound', 'the server could not find the requested resource'));
    return;
  }
  if (options.forbidden?.includes(resource.name) === true) {
    // A list across namespaces (-A) is asked at the cluster scope, namespaced resource or not.
    const message = `${resource.name} is forbidden: User "${STAND_IN_USER}" cannot list resource "${resource.name}" in API group "${resource.group}" at the cluster scope`;
    send(response, 403, { ...status(403, 'Forbidden', message), details: { kind: resource.name } });
    return;
  }
  if (options.failing?.includes(resource.name) === true) {
    const message = `Internal error occurred: etcdserver: request timed out while listing ${resource.name}`;
    send(response, 500, status(500, 'InternalError', message));
    return;
  }
  const items = options.objects.filter(
    (object) => object['kind'] === resource.kind && object['apiVersion'] === apiVersionOf(resource),
  );
  send(response, 200, {
    apiVersion: apiVersionOf(resource),
    kind: `${resource.kind}List`,
    metadata: { resourceVersion: '90210' },
    // A list's items carry no apiVersion and kind: the list's kind says what they are (kubectl adds them back).
    items: items.map((object) => {
      const item = { ...object };
      delete item['apiVersion'];
      delete item['kind'];
      return item;
    }),
  });
}

/** The paths a list of every object of the resource is served on (all namespaces: -A). */
function listPaths(resource: StandInResource): string[] {
  const base = resource.group === '' ? '/api/v1' : `/apis/${resource.group}/${resource.version}`;
  return [`${base}/${resource.name}`];
}

function apiVersionOf(resource: StandInResource): string {
  return resource.group === '' ? resource.version : `${resource.group}/${resource.version}`;
}

/** metav1.APIGroupList's groups, each with its one served version, preferred. */
function groups(): unknown[] {
  const names = [...new Set(STAND_IN_RESOURCES.map((entry) => entry.group).filter((group) => group !== ''))];
  return names.map((name) => {
    const version = STAND_IN_RESOURCES.find((entry) => entry.group === name)?.version ?? 'v1';
    const groupVersion = { groupVersion: `${name}/${version}`, version };
    return { name, versions: [groupVersion], preferredVersion: groupVersion };
  });
}

/** metav1.APIResourceList of a group version. */
function resourceList(group: string, version: string): unknown {
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group === '' ? version : `${group}/${version}`,
    resources: STAND_IN_RESOURCES.filter((entry) => entry.group === group && entry.version === version).map(
      (entry) => ({
        name: entry.name,
        singularName: entry.singularName,
        namespaced: entry.namespaced,
        kind: entry.kind,
        verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
        ...(entry.shortNames === undefined ? {} : { shortNames: entry.shortNames }),
      }),
    ),
  };
}

/** version.Info of a gitVersion ("v1.34.2"). */
function versionInfo(gitVersion: string): unknown {
  const [major = '1', minor = '0'] = gitVersion.replace(/^v/, '').split('.');
  return {
    major,
    minor,
    gitVersion,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2026-01-01T00:00:00Z',
    goVersion: 'go1.24.0',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

/** A metav1.Status of a failed request. */
function status(code: number, reason: string, message: string): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}

function send(response: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}

function core(
  name: string,
  singularName: string,
  kind: string,
  namespaced: boolean,
  shortNames?: readonly string[],
): StandInResource {
  return named('', 'v1', name, singularName, kind, namespaced, shortNames);
}

function named(
  group: string,
  version: string,
  name: string,
  singularName: string,
  kind: string,
  namespaced: boolean,
  shortNames?: readonly string[],
): StandInResource {
  return {
    group,
    version,
    name,
    singularName,
    kind,
    namespaced,
    ...(shortNames === undefined ? {} : { shortNames }),
  };
}
