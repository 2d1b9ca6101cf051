import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getAnalysisContext } from '../../support/language-service';
import { analyzeText } from '../../../server/src/language/analyzer';
import { readManifests } from '../../../server/src/language/manifests/read-manifests';

// The one manifest reader: which objects `kubectl apply -f` of these files leaves, and what it says about the rest.

const context = getAnalysisContext('1.35', 8 * 2 ** 20);

function files(entries: Record<string, string>) {
  return Object.entries(entries).map(([id, text]) => ({ id, analysis: analyzeText(text, context) }));
}

function configMap(name: string, extra = '', apiVersion = 'v1', kind = 'ConfigMap'): string {
  return `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: ${name}\n${extra}`;
}

const names = (result: ReturnType<typeof readManifests>): string[] =>
  result.objects.map(({ object, source }) => {
    const { kind, metadata } = object as { kind: string; metadata: { name?: string; namespace?: string } };
    return `${kind}/${metadata.namespace ?? '-'}/${metadata.name ?? '-'}@${source.file}#${source.documentIndex}`;
  });

describe('readManifests', () => {
  const cases: {
    name: string;
    files: Record<string, string>;
    objects: string[];
    findings: [string, string, number, string][];
  }[] = [
    {
      name: 'the same object in two files is one object: the later definition wins and the earlier is warned',
      files: {
        'a.yaml': configMap('web', 'data: {v: "1"}\n'),
        'b.yaml': configMap('web', 'data: {v: "2"}\n'),
      },
      objects: ['ConfigMap/-/web@b.yaml#0'],
      findings: [['duplicate-object', 'a.yaml', 0, 'ConfigMap default/web is defined again in b.yaml']],
    },
    {
      name: 'a file that redefines many objects of another is one finding for the pair of files, counting them',
      files: {
        'install.yaml': `${configMap('a')}---\n${configMap('b')}---\n${configMap('c')}`,
        'namespace-install.yaml': `${configMap('a')}---\n${configMap('b')}---\n${configMap('c')}`,
      },
      objects: [
        'ConfigMap/-/a@namespace-install.yaml#0',
        'ConfigMap/-/b@namespace-install.yaml#1',
        'ConfigMap/-/c@namespace-install.yaml#2',
      ],
      findings: [
        [
          'duplicate-object',
          'install.yaml',
          0,
          'namespace-install.yaml redefines 3 objects of install.yaml (the first: ConfigMap default/a',
        ],
      ],
    },
    {
      name: 'the same object twice in one file: the later document wins',
      files: { 'a.yaml': `${configMap('web')}---\n${configMap('web')}` },
      objects: ['ConfigMap/-/web@a.yaml#1'],
      findings: [['duplicate-object', 'a.yaml', 0, 'defined again in a.yaml (document 2)']],
    },
    {
      name: 'two versions of one API group name the same object (kubectl finds it by group, kind and name)',
      files: {
        'a.yaml': `apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  maxReplicas: 3\n`,
        'b.yaml': `apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  maxReplicas: 5\n`,
      },
      objects: ['HorizontalPodAutoscaler/-/web@b.yaml#0'],
      findings: [['duplicate-object', 'a.yaml', 0, 'HorizontalPodAutoscaler default/web is defined again']],
    },
    {
      name: 'no namespace is the default namespace, so it collides with namespace: default',
      files: {
        'a.yaml': configMap('web'),
        'b.yaml': configMap('web', '', 'v1').replace('  name: web\n', '  name: web\n  namespace: default\n'),
      },
      objects: ['ConfigMap/default/web@b.yaml#0'],
      findings: [['duplicate-object', 'a.yaml', 0, 'defined again in b.yaml']],
    },
    {
      name: 'the same name in two namespaces is two objects',
      files: {
        'a.yaml': configMap('web').replace('  name: web\n', '  name: web\n  namespace: shop\n'),
        'b.yaml': configMap('web'),
      },
      objects: ['ConfigMap/shop/web@a.yaml#0', 'ConfigMap/-/web@b.yaml#0'],
      findings: [],
    },
    {
      name: 'a cluster-scoped object is the same whatever namespace it is written with',
      files: {
        'a.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n  namespace: x\n',
        'b.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n',
      },
      objects: ['Namespace/-/shop@b.yaml#0'],
      findings: [['duplicate-object', 'a.yaml', 0, 'Namespace shop is defined again in b.yaml']],
    },
    {
      name: 'generateName without a name is refused with kubectl apply’s error, and not applied',
      files: {
        'job.yaml':
          'apiVersion: v1\nkind: Pod\nmetadata:\n  generateName: migrate-\nspec:\n  containers: [{name: m, image: busybox}]\n',
      },
      objects: [],
      findings: [
        [
          'generate-name-with-apply',
          'job.yaml',
          0,
          'error: from migrate-: cannot use generate name with apply',
        ],
      ],
    },
    {
      name: 'generateName beside a name is fine: the name is used',
      files: { 'a.yaml': configMap('web').replace('  name: web\n', '  name: web\n  generateName: web-\n') },
      objects: ['ConfigMap/-/web@a.yaml#0'],
      findings: [],
    },
    {
      name: 'a document with an error is left out: the API server refuses it',
      files: {
        'a.yaml': `${configMap('ok')}---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: bad\nspec:\n  replicas: "3"\n`,
      },
      objects: ['ConfigMap/-/ok@a.yaml#0'],
      findings: [],
    },
    {
      name: 'a List gives its items, not itself',
      files: {
        'list.yaml': `apiVersion: v1\nkind: List\nitems:\n  - ${configMap('a').trimEnd().replace(/\n/g, '\n    ')}\n  - ${configMap('b').trimEnd().replace(/\n/g, '\n    ')}\n`,
      },
      objects: ['ConfigMap/-/a@list.yaml#0', 'ConfigMap/-/b@list.yaml#0'],
      findings: [],
    },
    {
      name: 'a JSON file is read like YAML',
      files: { 'a.json': JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'j' } }) },
      objects: ['ConfigMap/-/j@a.json#0'],
      findings: [],
    },
  ];
  for (const entry of cases) {
    test(entry.name, () => {
      const result = readManifests(files(entry.files));
      assert.deepEqual(names(result), entry.objects);
      assert.equal(result.findings.length, entry.findings.length);
      entry.findings.forEach(([code, file, documentIndex, text], index) => {
        const finding = result.findings[index];
        assert.equal(finding?.code, code);
        assert.equal(finding?.object?.file, file);
        assert.equal(finding?.object?.documentIndex, documentIndex);
        assert.ok(finding?.message.includes(text), finding?.message);
      });
    });
  }

  test('renders of two kustomizations are applies of their own: one note per pair, no duplicate-object', () => {
    const rendered = (id: string, unit: string, text: string) => ({
      id,
      applyUnit: unit,
      analysis: analyzeText(text, context),
    });
    const result = readManifests([
      rendered('base/app.yaml', 'overlays/production', `${configMap('web')}---\n${configMap('api')}`),
      rendered('base/app.yaml', 'overlays/staging', `${configMap('web')}---\n${configMap('api')}`),
      rendered('extra.yaml', 'overlays/staging', configMap('api')),
    ]);
    assert.deepEqual(names(result), ['ConfigMap/-/web@base/app.yaml#0', 'ConfigMap/-/api@extra.yaml#0']);
    assert.deepEqual(
      result.findings.map((finding) => [finding.code, finding.severity, finding.object?.documentIndex]),
      [
        // production's web and api are overlapped by staging's: one note for the pair, on the first object.
        ['kustomizations-overlap', 'information', 0],
        // Within staging, api is defined twice: that is a duplicate of one apply.
        ['duplicate-object', 'warning', 1],
      ],
    );
    assert.match(result.findings[0]?.message ?? '', /is also applied by overlays\/staging/);
  });

  test("a render's texts are applied in the render's order (applyOrder), each unit in the slots its objects fill", () => {
    // kustomize's output, grouped by source file: a.yaml held the stream's objects 0 and 2, b.yaml 1 and 3. A plain
    // file of another unit between them keeps its place, and the objects of another render keep theirs.
    const text = (id: string, unit: string, names: string[], applyOrder?: number[]) => ({
      id,
      applyUnit: unit,
      analysis: analyzeText(names.map((name) => configMap(name)).join('---\n'), context),
      ...(applyOrder === undefined ? {} : { applyOrder }),
    });
    const result = readManifests([
      text('a.yaml', 'app', ['a0', 'a2'], [0, 2]),
      text('plain.yaml', 'plain', ['p']),
      text('b.yaml', 'app', ['b1', 'b3'], [1, 3]),
      text('c.yaml', 'other', ['c1', 'c0'], [1, 0]),
    ]);
    assert.deepEqual(names(result), [
      'ConfigMap/-/a0@a.yaml#0',
      'ConfigMap/-/b1@b.yaml#0',
      'ConfigMap/-/p@plain.yaml#0',
      'ConfigMap/-/a2@a.yaml#1',
      'ConfigMap/-/b3@b.yaml#1',
      'ConfigMap/-/c0@c.yaml#1',
      'ConfigMap/-/c1@c.yaml#0',
    ]);
  });

  test("a GitOps unit's objects are applied in its controller's order across its files; kubectl's stay in file order", () => {
    const deployment = (name: string): string =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  selector: {matchLabels: {app: ${name}}}\n  template:\n    metadata: {labels: {app: ${name}}}\n    spec:\n      containers: [{name: app, image: nginx:1.27}]\n`;
    const file = (id: string, unit: string, text: string, appliedBy?: 'Argo CD' | 'Flux') => ({
      id,
      applyUnit: unit,
      analysis: analyzeText(text, context),
      ...(appliedBy === undefined ? {} : { appliedBy }),
    });
    const texts = [`${deployment('web')}---\n${configMap('settings')}`, deployment('api')];
    for (const appliedBy of ['Argo CD', 'Flux'] as const) {
      const result = readManifests(
        [file('apps/web.yaml', 'apps', texts[0] ?? ''), file('apps/api.yaml', 'apps', texts[1] ?? '')].map(
          (entry) => ({ ...entry, appliedBy }),
        ),
      );
      assert.deepEqual(
        names(result),
        [
          'ConfigMap/-/settings@apps/web.yaml#1',
          'Deployment/-/api@apps/api.yaml#0',
          'Deployment/-/web@apps/web.yaml#0',
        ],
        appliedBy,
      );
    }
    const plain = readManifests([
      file('apps/web.yaml', 'apps', texts[0] ?? ''),
      file('apps/api.yaml', 'apps', texts[1] ?? ''),
    ]);
    assert.deepEqual(names(plain), [
      'Deployment/-/web@apps/web.yaml#0',
      'ConfigMap/-/settings@apps/web.yaml#1',
      'Deployment/-/api@apps/api.yaml#0',
    ]);
  });

  test('an object Argo CD creates from a generateName gets the name the API server would give it, the same on every read', () => {
    const hook =
      'apiVersion: batch/v1\nkind: Job\nmetadata:\n  generateName: upgrade-sql-schema\n  annotations: {argocd.argoproj.io/hook: PreSync}\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: m, image: alpine}]\n';
    const read = () =>
      readManifests([{ id: 'hooks.yaml', appliedBy: 'Argo CD', analysis: analyzeText(hook, context) }]);
    const nameOf = (result: ReturnType<typeof readManifests>): { name?: string; generateName?: string } =>
      (result.objects[0]?.object as { metadata?: { name?: string; generateName?: string } } | undefined)
        ?.metadata ?? {};
    const metadata = nameOf(read());
    // The prefix as written (no dash added), then five characters of the API server's alphabet.
    assert.match(metadata.name ?? '', /^upgrade-sql-schema[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.equal(metadata.generateName, 'upgrade-sql-schema');
    assert.equal(nameOf(read()).name, metadata.name);
    assert.deepEqual(read().findings, []);
  });

  test('an Argo CD hook that a successful sync does not create is left out with a note; other hooks are applied', () => {
    // Rows after gitops-engine's pkg/sync/hook/hook_test.go (TestSkipHook, TestGarbageHook, TestSkipAndHook,
    // TestHelmHook, TestGarbageHelmHook, TestBothHooks) and helm/hook_test.go (crd-install is no hook).
    const annotated = (name: string, annotations: string): string =>
      configMap(name).replace('metadata:\n', `metadata:\n  annotations: {${annotations}}\n`);
    const argo = (name: string, types: string): string =>
      annotated(name, `argocd.argoproj.io/hook: "${types}"`);
    const helm = (name: string, types: string): string => annotated(name, `helm.sh/hook: "${types}"`);
    const text = [
      argo('skipped', 'Skip'),
      argo('on-failure', 'SyncFail'),
      argo('after-delete', 'PostDelete, SyncFail'),
      argo('misspelt', 'Garbage'),
      helm('helm-test', 'test'),
      argo('skipped-too', 'Skip,PreSync'),
      argo('before', 'PreSync'),
      argo('after-or-failure', 'PostSync,SyncFail'),
      helm('helm-pre', 'pre-install'),
      annotated('argo-wins', 'argocd.argoproj.io/hook: Sync, helm.sh/hook: post-install'),
      helm('crd-install-marked', 'crd-install'),
      configMap('plain'),
    ].join('---\n');
    const read = readManifests([
      { id: 'hooks.yaml', appliedBy: 'Argo CD', analysis: analyzeText(text, context) },
    ]);
    assert.deepEqual(
      names(read).map((name) => name.split('@')[0]),
      // In Argo CD's order: the PreSync hooks, the Sync objects, the PostSync hook; by name within a phase.
      [
        'ConfigMap/-/before',
        'ConfigMap/-/helm-pre',
        'ConfigMap/-/skipped-too',
        'ConfigMap/-/argo-wins',
        'ConfigMap/-/crd-install-marked',
        'ConfigMap/-/plain',
        'ConfigMap/-/after-or-failure',
      ],
    );
    assert.deepEqual(
      read.findings.map((finding) => [finding.code, finding.object?.documentIndex, finding.path?.join('.')]),
      [0, 1, 2, 3, 4].map((index) => [
        'gitops-hook-not-applied',
        index,
        'metadata.annotations.argocd.argoproj.io/hook',
      ]),
    );
    assert.deepEqual(
      read.findings.map((finding) => /: ([^:]*), so it is left out/.exec(finding.message)?.[1]),
      [
        'Argo CD does not apply it',
        'a SyncFail hook, Argo CD creates it only when a sync fails',
        'a PostDelete and SyncFail hook, Argo CD creates it only when a sync fails or after the Application is deleted',
        'a hook of no sync phase Argo CD knows, it is never created in a sync',
        'a hook of no sync phase Argo CD knows, it is never created in a sync',
      ],
    );
    // kubectl apply knows nothing of Argo CD's hooks: every object is applied.
    const kubectl = readManifests([{ id: 'hooks.yaml', analysis: analyzeText(text, context) }]);
    assert.equal(kubectl.objects.length, 12);
    assert.deepEqual(kubectl.findings, []);
  });

  test('keepAll (a cluster file) keeps documents with errors and every definition', () => {
    const result = readManifests(
      files({
        'cluster.yaml': `${configMap('web')}---\n${configMap('web')}---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: bad\nspec:\n  replicas: "3"\n`,
      }),
      { keepAll: true },
    );
    assert.equal(result.objects.length, 3);
    assert.deepEqual(result.findings, []);
  });
});
