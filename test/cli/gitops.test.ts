import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { JsonReport } from '../../server/src/cli/formats/report-json';
import type { GitopsUnitSummary } from '../../server/src/files/gitops/gitops-texts';
import Ajv from 'ajv';
import { ROOT, runForesight } from './cli-harness';

// GitOps units: an Argo CD Application or a Flux Kustomization whose path is in the workspace is applied as its
// controller applies it, with its namespace (Argo CD's destination.namespace fills, Flux's targetNamespace
// overrides), listed in the output, and applied once even when `-R` also finds its folder.

const ENV = { PATH: process.env['PATH'] ?? '' };
const ORIGIN = 'https://github.com/example/platform.git';

/** A Git work tree in a temporary folder (a .git/config naming its origin) with these files. */
function repository(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'foresight-gitops-'));
  const all = { '.git/config': `[remote "origin"]\n\turl = ${ORIGIN}\n`, ...files };
  for (const [name, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

function deployment(name: string, namespace?: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
${namespace === undefined ? '' : `  namespace: ${namespace}\n`}spec:
  replicas: 1
  selector:
    matchLabels: { app: ${name} }
  template:
    metadata:
      labels: { app: ${name} }
    spec:
      containers:
        - name: app
          image: nginx:1.27
          resources: { requests: { cpu: 50m, memory: 64Mi } }
`;
}

function application(name: string, source: string, namespace = 'shop', repoURL = ORIGIN): string {
  return `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: ${name}
  namespace: argocd
spec:
  project: default
  destination:
    server: https://kubernetes.default.svc
    namespace: ${namespace}
  source:
    repoURL: ${repoURL}
    targetRevision: main
${source}`;
}

function fluxKustomization(name: string, path: string, extra = ''): string {
  return `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: ${name}
  namespace: flux-system
spec:
  interval: 10m
  sourceRef:
    kind: GitRepository
    name: flux-system
  path: ${path}
  prune: true
${extra}`;
}

async function simulate(
  root: string,
  ...args: string[]
): Promise<JsonReport & { gitopsUnits?: GitopsUnitSummary[] }> {
  const result = await runForesight(['simulate', '-o', 'json', ...args], { cwd: root, env: ENV });
  return JSON.parse(result.stdout) as JsonReport & { gitopsUnits?: GitopsUnitSummary[] };
}

/** Each pod's namespace and the workload it belongs to ("shop Deployment/web"), sorted. */
function podPlaces(report: JsonReport): string[] {
  return report.pods.map((pod) => `${pod.namespace} ${pod.name.replace(/-[a-z0-9]+-[a-z0-9]+$/, '')}`).sort();
}

describe('GitOps units', () => {
  test('an Argo CD directory Application fills destination.namespace into objects naming none, leaves the others', async () => {
    const root = repository({
      'apps/guestbook.yaml': application('guestbook', '    path: guestbook\n'),
      'guestbook/web.yaml': deployment('web'),
      'guestbook/pinned.yaml': deployment('pinned', 'ops'),
    });
    const report = await simulate(root, '-R', '.');
    assert.deepEqual(podPlaces(report), ['ops pinned', 'shop web']);
    const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', 'report.schema.json'), 'utf8')) as object;
    const validate = new Ajv({ strict: false }).compile(schema);
    assert.ok(validate(report), JSON.stringify(validate.errors));
    assert.deepEqual(report.gitopsUnits, [
      {
        kind: 'Application',
        name: 'argocd/guestbook',
        definition: 'apps/guestbook.yaml:1',
        path: 'guestbook',
        namespace: 'shop',
        namespaceMode: 'fill',
        build: 'files',
      },
    ]);
  });

  test('a Flux Kustomization without a kustomization.yaml applies every YAML below its path, and targetNamespace overrides', async () => {
    const root = repository({
      'clusters/prod/apps.yaml': fluxKustomization('apps', './apps', '  targetNamespace: team\n'),
      'apps/web.yaml': deployment('web'),
      'apps/nested/pinned.yaml': deployment('pinned', 'ops'),
    });
    const report = await simulate(root, '-R', '.');
    assert.deepEqual(podPlaces(report), ['team pinned', 'team web']);
    assert.equal(report.gitopsUnits?.[0]?.namespaceMode, 'override');
  });

  test('CreateNamespace=true creates destination.namespace first, with managedNamespaceMetadata (controller/sync_namespace.go)', async () => {
    // A capture that lists namespaces: a namespace it lacks is refused, unless the sync creates it.
    const capture = [
      'apiVersion: foresight/v1',
      'kind: Capture',
      'spec: {context: prod, capturedAt: "2026-03-02T10:15:00Z", serverVersion: v1.35.0, kinds: [nodes, namespaces]}',
      '---',
      'apiVersion: v1',
      'kind: List',
      'items:',
      '- {apiVersion: v1, kind: Node, metadata: {name: node-1, labels: {kubernetes.io/hostname: node-1}}, status: {allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}}',
      '- {apiVersion: v1, kind: Namespace, metadata: {name: default}}',
      '- {apiVersion: v1, kind: Namespace, metadata: {name: argocd}}',
      '',
    ].join('\n');
    const syncPolicy = (managed: string): string =>
      `  syncPolicy:\n    syncOptions: [CreateNamespace=true]\n${managed}`;
    const codes = (report: JsonReport): string[] =>
      report.findings
        .filter((finding) => finding.severity !== 'information')
        .map((finding) => `${finding.code}: ${finding.message.slice(0, 60)}`);
    const without = repository({
      '.foresight/cluster.yaml': capture,
      'apps/guestbook.yaml': application('guestbook', '    path: guestbook\n'),
      'guestbook/web.yaml': deployment('web'),
    });
    assert.deepEqual(podPlaces(await simulate(without, 'apps')), []);
    const created = repository({
      '.foresight/cluster.yaml': capture,
      'apps/guestbook.yaml': application('guestbook', `    path: guestbook\n${syncPolicy('')}`),
      'guestbook/web.yaml': deployment('web'),
    });
    const report = await simulate(created, 'apps');
    assert.deepEqual(podPlaces(report), ['shop web']);
    assert.deepEqual(codes(report), []);
    assert.equal(report.gitopsUnits?.[0]?.createsNamespace, 'shop');
    const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', 'report.schema.json'), 'utf8')) as object;
    const validate = new Ajv({ strict: false }).compile(schema);
    assert.ok(validate(report), JSON.stringify(validate.errors));
    const text = await runForesight(['simulate', 'apps'], { cwd: created, env: ENV });
    assert.match(
      text.stdout,
      /applies guestbook in namespace shop \(objects naming none\), creating namespace shop \(CreateNamespace=true\)\n/,
    );
    // The managed labels are the created namespace's: its Pod Security level refuses the pod.
    const restricted = repository({
      '.foresight/cluster.yaml': capture,
      'apps/guestbook.yaml': application(
        'guestbook',
        `    path: guestbook\n${syncPolicy('    managedNamespaceMetadata:\n      labels: {pod-security.kubernetes.io/enforce: restricted}\n')}`,
      ),
      'guestbook/web.yaml': deployment('web'),
    });
    const refused = await simulate(restricted, 'apps');
    assert.deepEqual(podPlaces(refused), []);
    assert.match(
      codes(refused).join('\n'),
      /admission-refused: .*PodSecurity|violates PodSecurity "restricted:latest"/,
    );
  });

  test('Argo CD reads sub-folders only with directory.recurse, and honours include and exclude globs', async () => {
    const flat = repository({
      'apps/app.yaml': application('flat', '    path: svc\n'),
      'svc/web.yaml': deployment('web'),
      'svc/nested/deeper.yaml': deployment('deeper'),
    });
    // Without recurse the nested folder is a plain unit of -R of its own, in default.
    assert.deepEqual(podPlaces(await simulate(flat, '-R', '.')), ['default deeper', 'shop web']);
    const recursive = repository({
      'apps/app.yaml': application(
        'deep',
        "    path: svc\n    directory:\n      recurse: true\n      exclude: '{skip*,*/skip*}'\n",
      ),
      'svc/web.yaml': deployment('web'),
      'svc/skip-me.yaml': deployment('skipped'),
      'svc/nested/deeper.yaml': deployment('deeper'),
    });
    assert.deepEqual(podPlaces(await simulate(recursive, '-R', '.')), ['shop deeper', 'shop web']);
  });

  test('a folder that is a GitOps path and a -R folder is applied once, as the GitOps unit', async () => {
    const root = repository({
      'apps/guestbook.yaml': application('guestbook', '    path: guestbook\n'),
      'guestbook/web.yaml': deployment('web'),
    });
    const json = await runForesight(['validate', '-R', '-o', 'json', '.'], { cwd: root, env: ENV });
    const report = JSON.parse(json.stdout) as {
      units: { name: string; command: string }[];
      findings: { code: string }[];
    };
    assert.deepEqual(
      report.units.map((unit) => `${unit.name} ${unit.command}`),
      ['guestbook Argo CD Application', 'apps kubectl apply -f'],
    );
    // The one note: no CRD here defines Application (no duplicate-object, no kustomizations-overlap).
    assert.deepEqual(
      report.findings.map((finding) => finding.code),
      ['unknown-custom-kind'],
    );
    assert.deepEqual(podPlaces(await simulate(root, '-R', '.')), ['shop web']);
  });

  test('the text output lists each unit with its definition, path and namespace', async () => {
    const root = repository({
      'apps/guestbook.yaml': application('guestbook', '    path: guestbook\n'),
      'guestbook/web.yaml': deployment('web'),
    });
    const result = await runForesight(['validate', '-R', '.'], { cwd: root, env: ENV });
    assert.equal(result.code, 0, result.stdout);
    assert.match(
      result.stdout,
      /^GitOps unit: Argo CD Application argocd\/guestbook \(apps\/guestbook\.yaml:1\) applies guestbook in namespace shop \(objects naming none\)$/m,
    );
  });

  test('simulate lists the units too, in text before the report', async () => {
    const root = repository({
      'clusters/prod/apps.yaml': fluxKustomization('apps', './apps', '  targetNamespace: team\n'),
      'apps/web.yaml': deployment('web'),
    });
    const result = await runForesight(['simulate', '-R', '.'], { cwd: root, env: ENV });
    assert.match(
      result.stdout,
      /^GitOps unit: Flux Kustomization flux-system\/apps \(clusters\/prod\/apps\.yaml:1\) applies apps in namespace team\n/,
    );
  });

  test('Applications on standard input (helm template of an app of apps) define units in the working tree', async () => {
    const root = repository({ 'guestbook/web.yaml': deployment('web') });
    const result = await runForesight(['simulate', '-R', '-o', 'json', '-', '.'], {
      cwd: root,
      env: ENV,
      stdin: application('guestbook', '    path: guestbook\n'),
    });
    const report = JSON.parse(result.stdout) as JsonReport & { gitopsUnits?: GitopsUnitSummary[] };
    assert.deepEqual(podPlaces(report), ['shop web']);
    assert.equal(report.gitopsUnits?.[0]?.definition, '<stdin>:1');
  });

  test('a path missing from this repository is one warning on spec.source.path; another repository is one note', async () => {
    const root = repository({
      'apps/gone.yaml': application('gone', '    path: nowhere\n'),
      'apps/remote.yaml': application(
        'remote',
        '    path: deploy\n',
        'shop',
        'https://github.com/someone/else.git',
      ),
    });
    const result = await runForesight(['validate', '-R', '.'], { cwd: root, env: ENV });
    const findings = result.stdout.split('\n').filter((line) => / gitops-/.test(line));
    assert.deepEqual(
      findings.map((line) => line.split(' ').slice(0, 3).join(' ')),
      [
        'apps/gone.yaml:14:11: warning gitops-path-missing',
        'apps/remote.yaml:14:11: information gitops-source-not-checked',
      ],
    );
    assert.match(result.stdout, /path "nowhere" is not a folder of this repository/);
    assert.equal(result.code, 0);
  });

  test('a hook with only a generateName is created by Argo CD, so no generate-name-with-apply in its unit', async () => {
    const hook = `apiVersion: batch/v1
kind: Job
metadata:
  generateName: upgrade-sql-schema
  annotations:
    argocd.argoproj.io/hook: PreSync
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: migrate
          image: postgres:16
`;
    const codes = async (root: string): Promise<string[]> => {
      const result = await runForesight(['validate', '-R', '-o', 'json', '.'], { cwd: root, env: ENV });
      return (JSON.parse(result.stdout) as { findings: { code: string }[] }).findings
        .map((finding) => finding.code)
        .filter((code) => code !== 'unknown-custom-kind');
    };
    const withArgo = repository({
      'apps/db.yaml': application('db', '    path: db\n'),
      'db/hook.yaml': hook,
    });
    assert.deepEqual(await codes(withArgo), []);
    // The same folder applied by kubectl apply -f: refused, as kubectl refuses it.
    assert.deepEqual(await codes(repository({ 'db/hook.yaml': hook })), ['generate-name-with-apply']);
  });

  test('simulate: Argo CD hooks as argocd-example-apps sync-waves writes them (PreSync from a generateName, a SyncFail one)', async () => {
    const job = (metadata: string, image: string): string =>
      `apiVersion: batch/v1\nkind: Job\nmetadata:\n${metadata}spec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n        - {name: step, image: ${image}, command: [sleep, "5"]}\n`;
    const root = repository({
      'apps/db.yaml': application('db', '    path: db\n'),
      'db/hooks.yaml': [
        job(
          '  generateName: upgrade-sql-schema\n  annotations:\n    argocd.argoproj.io/hook: PreSync\n',
          'alpine:3.20',
        ),
        job(
          '  name: notify-failure\n  annotations:\n    argocd.argoproj.io/hook: SyncFail\n',
          'curlimages/curl:8.8.0',
        ),
      ].join('---\n'),
    });
    const result = await runForesight(['simulate', '-R', '-o', 'json', '.'], { cwd: root, env: ENV });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const report = JSON.parse(result.stdout) as {
      pods: { name: string; owner: string | null; nodeName: string | null }[];
      findings: { code: string; severity: string }[];
    };
    // The API server names the PreSync Job from its generateName; its pod is named after the Job.
    assert.deepEqual(
      report.pods.map(
        (pod) => /^upgrade-sql-schema[b-z2-9]{5}-[b-z2-9]{5}$/.test(pod.name) && pod.nodeName !== null,
      ),
      [true],
    );
    assert.deepEqual(
      report.findings
        .filter((finding) => finding.code !== 'unknown-custom-kind' && finding.code !== 'namespace-not-found')
        .map((finding) => [finding.code, finding.severity]),
      [['gitops-hook-not-applied', 'information']],
    );
  });

  test('a folder a plugin renders in Argo CD is not rendered as kubectl apply -k either: one note, no error', async () => {
    const root = repository({
      'apps/app.yaml': application('plug', '    path: plug\n    plugin:\n      name: kustomized-helm\n'),
      // kustomize itself refuses this (patches as strings): only the plugin makes sense of it.
      'plug/kustomization.yaml': 'patches:\n  - overlays/deployment.yaml\n',
    });
    const result = await runForesight(['validate', '-R', '-o', 'json', '.'], { cwd: root, env: ENV });
    const report = JSON.parse(result.stdout) as { findings: { code: string }[] };
    assert.deepEqual(
      report.findings.map((finding) => finding.code).filter((code) => code !== 'unknown-custom-kind'),
      ['gitops-source-not-checked'],
    );
    assert.equal(result.code, 0);
  });

  test('a kustomize Application renders its folder; kustomize.namespace overrides, other options are named in a note', async () => {
    const root = repository({
      'apps/app.yaml': application(
        'kz',
        '    path: kz\n    kustomize:\n      namespace: team\n      namePrefix: x-\n',
      ),
      'kz/kustomization.yaml': 'resources:\n  - web.yaml\n',
      'kz/web.yaml': deployment('web', 'ops'),
    });
    const report = await simulate(root, '-R', '.');
    assert.deepEqual(podPlaces(report), ['team web']);
    const text = await runForesight(['validate', '-R', '.'], { cwd: root, env: ENV });
    assert.match(
      text.stdout,
      /information gitops-option-not-applied .*kustomize\.namePrefix not applied here/,
    );
  });
});
