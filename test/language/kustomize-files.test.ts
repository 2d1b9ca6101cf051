import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAnalysisContext } from '../support/language-service';
import { analyzeText } from '../../server/src/language/analyzer';
import { readManifests } from '../../server/src/language/manifests/read-manifests';
import { readKustomization } from '../../server/src/language/kustomize/kustomization';
import { withKustomizeRole } from '../../server/src/language/kustomize/role-context';
import { KustomizeRoles } from '../../server/src/files/kustomize-roles';

// Files a kustomization names are checked as what kustomize makes of them: patches as partial objects or JSON
// patches, transformer configurations not as objects, and resources without the fields the transformers supply.

const FIXTURES = join(__dirname, '..', 'fixtures', 'kustomize-files');
const context = getAnalysisContext('1.35', 8 * 2 ** 20);

/** The findings of a fixture file as "line:code", checked with the role its kustomizations give it. */
function findingsOf(file: string, roles = new KustomizeRoles()): string[] {
  const path = join(FIXTURES, file);
  const text = readFileSync(path, 'utf8');
  const analysis = analyzeText(text, withKustomizeRole(context, roles.roleOf(path)));
  return analysis.findings.map(
    (finding) => `${text.slice(0, finding.start).split('\n').length}:${finding.code}`,
  );
}

const CASES: readonly { name: string; file: string; role: string | undefined; findings: string[] }[] = [
  {
    name: 'a base Deployment whose selector the labels transformer (includeSelectors) supplies is not missing it',
    file: 'app/base/deployment.yaml',
    role: 'resource+selector',
    findings: [],
  },
  {
    name: 'a strategic-merge patch with $patch: delete and $setElementOrder is a valid partial Deployment',
    file: 'app/overlays/prod/replicas-patch.yaml',
    role: 'patch',
    findings: [],
  },
  {
    name: 'a patch under patchesStrategicMerge need not hold the required fields of a Deployment',
    file: 'app/overlays/prod/resources-patch.yaml',
    role: 'patch',
    findings: [],
  },
  {
    name: 'a JSON6902 patch file is a list of operations, not an object',
    file: 'app/overlays/prod/json-patch.yaml',
    role: 'patch',
    findings: [],
  },
  {
    name: 'a transformer configuration (apiVersion: builtin) is not an unknown kind',
    file: 'app/overlays/prod/label-transformer.yaml',
    role: 'transformer-config',
    findings: [],
  },
  {
    name: 'a configurations fieldSpec file gets no finding',
    file: 'app/overlays/prod/fieldspecs.yaml',
    role: 'transformer-config',
    findings: [],
  },
  {
    name: "a component's patch is a partial object too",
    file: 'app/components/monitoring/sidecar-patch.yaml',
    role: 'patch',
    findings: [],
  },
  {
    name: 'a misspelt field and a wrong type in a patch are still reported on their lines',
    file: 'app/overlays/broken/bad-patch.yaml',
    role: 'patch',
    findings: ['6:schema-type', '11:schema-unknown-field'],
  },
  {
    name: 'an unknown op and a path that is not a JSON pointer are reported on their lines',
    file: 'app/overlays/broken/bad-json-patch.yaml',
    role: 'patch',
    findings: ['1:schema-enum', '5:schema-constraint'],
  },
  {
    name: "a base Deployment whose selector only an overlay's commonLabels supplies is not missing it",
    file: 'overlay-labels/base/deployment.yaml',
    role: 'resource+selector',
    findings: [],
  },
  {
    name: "a base Deployment whose selector only an overlay's labels with includeSelectors supplies is not missing it",
    file: 'overlay-includes-selectors/base/deployment.yaml',
    role: 'resource+selector',
    findings: [],
  },
  {
    name: 'a Kustomization with every kind of reference gets no finding',
    file: 'app/overlays/prod/kustomization.yaml',
    role: 'kustomization',
    findings: [],
  },
  {
    name: 'a Component gets no finding',
    file: 'app/components/monitoring/kustomization.yaml',
    role: 'kustomization',
    findings: [],
  },
  {
    name: 'a patch fragment beside a kustomization that does not list it is applied by nothing: one note, no error',
    file: 'unlisted/webhook_patch.yaml',
    role: 'unlisted',
    findings: ['1:unit-file-unlisted'],
  },
  {
    name: "a generator's input beside its kustomization is read by it, not unlisted",
    file: 'unlisted/settings.yaml',
    role: undefined,
    findings: [],
  },
  {
    name: 'a base Deployment nothing supplies a selector to is still missing it',
    file: 'plain/base/deployment.yaml',
    role: 'resource',
    findings: ['5:schema-required'],
  },
];

describe('kustomize files checked as what their kustomization names them', () => {
  for (const { name, file, role, findings } of CASES) {
    test(name, () => {
      const found = new KustomizeRoles().roleOf(join(FIXTURES, file));
      assert.equal(
        found === undefined ? undefined : `${found.kind}${found.selectorSupplied ? '+selector' : ''}`,
        role,
      );
      assert.deepEqual(findingsOf(file), findings);
    });
  }

  test('a file no kustomization names is checked as a full object', () => {
    const text = readFileSync(join(FIXTURES, 'app/overlays/prod/resources-patch.yaml'), 'utf8');
    const codes = analyzeText(text, context).findings.map((finding) => finding.code);
    assert.ok(codes.includes('schema-required'));
  });

  test('the objects of patches and unlisted fragments are left out of what would be applied', () => {
    const roles = new KustomizeRoles();
    const files = [
      'app/base/deployment.yaml',
      'app/overlays/prod/replicas-patch.yaml',
      'unlisted/webhook_patch.yaml',
    ].map((file) => {
      const path = join(FIXTURES, file);
      return {
        id: file,
        analysis: analyzeText(readFileSync(path, 'utf8'), withKustomizeRole(context, roles.roleOf(path))),
      };
    });
    assert.deepEqual(
      readManifests(files).objects.map((object) => object.source.file),
      ['app/base/deployment.yaml'],
    );
  });

  test('the same role and context give the same derived context, so cached analyses are reused', () => {
    const roles = new KustomizeRoles();
    const path = join(FIXTURES, 'app/overlays/prod/replicas-patch.yaml');
    assert.equal(
      withKustomizeRole(context, roles.roleOf(path)),
      withKustomizeRole(context, roles.roleOf(path)),
    );
    assert.equal(withKustomizeRole(context, undefined), context);
  });
});

describe('overlays found around a base', () => {
  test('an overlay added later is seen by a watching instance (the editor) and not by a stable one (one run)', () => {
    const root = mkdtempSync(join(tmpdir(), 'foresight-roles-'));
    try {
      const base = join(root, 'app', 'base');
      mkdirSync(base, { recursive: true });
      writeFileSync(join(base, 'kustomization.yaml'), 'resources:\n  - deployment.yaml\n');
      const file = join(base, 'deployment.yaml');
      writeFileSync(file, 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\n');
      const watching = new KustomizeRoles();
      const stable = new KustomizeRoles(undefined, true);
      assert.deepEqual(watching.roleOf(file), { kind: 'resource', selectorSupplied: false });
      assert.deepEqual(stable.roleOf(file), { kind: 'resource', selectorSupplied: false });
      // A new overlay folder changes the modification time of the folder that holds it.
      const overlay = join(root, 'app', 'prod');
      mkdirSync(overlay);
      writeFileSync(
        join(overlay, 'kustomization.yaml'),
        'resources:\n  - ../base\ncommonLabels:\n  app: a\n',
      );
      assert.deepEqual(watching.roleOf(file), { kind: 'resource', selectorSupplied: true });
      assert.deepEqual(stable.roleOf(file), { kind: 'resource', selectorSupplied: false });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('the search for overlays stays inside the repository of a base at its root', () => {
    // A kustomization at a repository's root (kube-prometheus' own) includes manifests/; the folder above the
    // repository holds other projects, which are not listed, even one with an overlay naming this base.
    const root = mkdtempSync(join(tmpdir(), 'foresight-roles-'));
    try {
      const repository = join(root, 'repo');
      const manifests = join(repository, 'manifests');
      mkdirSync(join(repository, '.git'), { recursive: true });
      mkdirSync(manifests);
      writeFileSync(join(repository, 'kustomization.yaml'), 'resources:\n  - manifests/deployment.yaml\n');
      const file = join(manifests, 'deployment.yaml');
      writeFileSync(file, 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\n');
      const stranger = join(root, 'other-project');
      mkdirSync(stranger);
      writeFileSync(
        join(stranger, 'kustomization.yaml'),
        'resources:\n  - ../repo\ncommonLabels:\n  app: a\n',
      );
      assert.deepEqual(new KustomizeRoles(undefined, true).roleOf(file), {
        kind: 'resource',
        selectorSupplied: false,
      });
      // The same folders without .git: the folder above is searched, as before, and the overlay is found.
      rmSync(join(repository, '.git'), { recursive: true });
      assert.deepEqual(new KustomizeRoles(undefined, true).roleOf(file), {
        kind: 'resource',
        selectorSupplied: true,
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('what a kustomization names', () => {
  test('a field kustomize does not know is refused, as kustomize refuses it, with the nearest name', () => {
    const role = { kind: 'kustomization', selectorSupplied: false } as const;
    const findings = analyzeText(
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresource:\n  - a.yaml\n',
      withKustomizeRole(context, role),
    ).findings;
    assert.deepEqual(
      findings.map(({ code, message, start }) => ({ code, message, start })),
      [
        {
          code: 'schema-unknown-field',
          message: 'invalid Kustomization: json: unknown field "resource"; did you mean "resources"?',
          start: 64,
        },
      ],
    );
  });

  test('local paths of every field are read; inline patches and remote resources name no file', () => {
    const references = readKustomization(`resources:
  - deployment.yaml
  - https://github.com/example/app//base?ref=v1
bases: [../base]
components: [../../components/x]
patches:
  - path: a.yaml
  - patch: |-
      - op: remove
        path: /spec/replicas
  - legacy.yaml
patchesStrategicMerge: [b.yaml]
patchesJson6902: [{path: c.yaml, target: {kind: Deployment}}]
transformers: [t.yaml]
generators: [g.yaml]
configurations: [f.yaml]
replacements: [{path: r.yaml}]
crds: [crd.yaml]
openapi: {path: schema.json}
configMapGenerator: [{name: c, files: [app.properties, key=k.txt], envs: [a.env]}]
secretGenerator: [{name: s, env: s.env}]
commonLabels: {app: web}
`);
    assert.deepEqual(references, {
      resources: ['deployment.yaml', '../base', '../../components/x'],
      patches: ['legacy.yaml', 'a.yaml', 'b.yaml', 'c.yaml'],
      configurations: ['t.yaml', 'g.yaml', 'f.yaml', 'r.yaml'],
      inputs: ['crd.yaml', 'schema.json', 'app.properties', 'k.txt', 'a.env', 's.env'],
      suppliesSelector: true,
    });
  });

  test('labels supply the selector only with includeSelectors', () => {
    assert.equal(readKustomization('labels: [{pairs: {app: web}}]')?.suppliesSelector, false);
    assert.equal(
      readKustomization('labels: [{pairs: {app: web}, includeSelectors: true}]')?.suppliesSelector,
      true,
    );
    assert.equal(readKustomization('- not a kustomization'), undefined);
  });
});
