import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { isRemoteResource } from '../../server/src/files/kustomize/kustomization-tree';
import { findKustomize, renderKustomization } from '../../server/src/files/kustomize/render-kustomization';
import { ROOT, runForesight } from './cli-harness';

// A folder with a kustomization.yaml is read as `kubectl apply -k` reads it: rendered by the real kustomize
// (kubectl kustomize, v5.5 on the machines and in CI), with findings on the files the objects came from.

const FIXTURES = 'test/fixtures/kustomize';

/** The environment of a run: the PATH kubectl is found on. */
const ENV = { PATH: process.env['PATH'] ?? '' };

const kustomize = findKustomize(process.env['FORESIGHT_KUSTOMIZE'], process.env['PATH']);
const MISSING = 'neither kubectl nor kustomize is on PATH';
if (kustomize === undefined && process.env['CI'] !== 'true') {
  process.stdout.write(`# kustomize tests skipped: ${MISSING}\n`);
}
/** Skips when kustomize is missing, except in CI, where the test fails instead (the image has kubectl). */
const needsKustomize = { skip: kustomize === undefined && process.env['CI'] !== 'true' ? MISSING : false };

function assertKustomizeFound(): void {
  assert.ok(kustomize !== undefined, `${MISSING} (CI=true: the kustomize tests must run)`);
}

/** A quantity of the report ("700m", "2", "1094Mi", "1Gi") in milli-units or MiB. */
function quantity(text: string): number {
  const match = /^(\d+)(m|Mi|Gi)?$/.exec(text);
  assert.ok(match !== null, `unexpected quantity ${text}`);
  const value = Number(match[1]);
  return match[2] === 'm'
    ? value
    : match[2] === 'Mi'
      ? value
      : match[2] === 'Gi'
        ? value * 1024
        : value * 1000;
}

interface JsonReport {
  readonly cluster: { readonly nodes: readonly { readonly requested: Record<string, string> }[] };
  readonly rollouts: readonly { readonly name: string; readonly replicas: number }[];
  readonly pods: readonly { readonly nodeName: string | null }[];
}

/** The CPU (milli) and memory (MiB) requested across the nodes of a simulation of a folder. */
async function requested(folder: string): Promise<{ cpu: number; memory: number; report: JsonReport }> {
  const result = await runForesight(['simulate', '-o', 'json', folder], { env: ENV });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  const report = JSON.parse(result.stdout) as JsonReport;
  const sum = (resource: string): number =>
    report.cluster.nodes.reduce((total, node) => total + quantity(node.requested[resource] ?? '0'), 0);
  return { cpu: sum('cpu'), memory: sum('memory'), report };
}

describe('foresight on kustomization folders (real kustomize)', () => {
  test(
    'simulate of the prod overlay predicts its replicas (strategic-merge patch) and requests (JSON6902 patch)',
    needsKustomize,
    async () => {
      assertKustomizeFound();
      const base = await requested(`${FIXTURES}/base`);
      const prod = await requested(`${FIXTURES}/overlays/prod`);
      assert.deepEqual(
        prod.report.rollouts.map((rollout) => [rollout.name, rollout.replicas]),
        [['web', 3]],
      );
      assert.equal(prod.report.pods.filter((pod) => pod.nodeName !== null).length, 3);
      // The base: 1 replica of 100m and 128Mi; the overlay: 3 of 700m and 1Gi.
      assert.equal(prod.cpu - base.cpu, 3 * 700 - 100);
      assert.equal(prod.memory - base.memory, 3 * 1024 - 128);
    },
  );

  test(
    'the base alone is rendered too: its selector comes from labels, so its pod is placed',
    needsKustomize,
    async () => {
      assertKustomizeFound();
      const result = await runForesight(['simulate', `${FIXTURES}/base`], { env: ENV });
      assert.equal(result.code, 0, result.stdout);
      assert.match(result.stdout, /1 pods?: 1 placed, 0 Pending/);
    },
  );

  test('the dev overlay renders its component and name prefix', needsKustomize, async () => {
    assertKustomizeFound();
    const result = await runForesight(['simulate', '-o', 'json', `${FIXTURES}/overlays/dev`], { env: ENV });
    assert.equal(result.code, 0, result.stdout);
    const report = JSON.parse(result.stdout) as JsonReport;
    assert.deepEqual(
      report.rollouts.map((rollout) => rollout.name),
      ['dev-web'],
    );
  });

  test(
    'a validation error inside the base is reported on its value in the base file, as in a plain file',
    needsKustomize,
    async () => {
      assertKustomizeFound();
      const validate = await runForesight(['validate', `${FIXTURES}/invalid-base/overlay`], { env: ENV });
      assert.equal(validate.code, 1, validate.stdout);
      assert.match(
        validate.stdout,
        /^test\/fixtures\/kustomize\/invalid-base\/base\/deployment\.yaml:13:30: error schema-type .*containerPort/m,
      );
      const simulate = await runForesight(['simulate', `${FIXTURES}/invalid-base/overlay`], { env: ENV });
      assert.match(
        simulate.stdout,
        /test\/fixtures\/kustomize\/invalid-base\/base\/deployment\.yaml:13: .*containerPort/,
      );
    },
  );

  test(
    'a pod that stays Pending is reported on the patch that set the field, as the editor shows it',
    needsKustomize,
    async () => {
      assertKustomizeFound();
      const overlay = mkdtempSync(join(tmpdir(), 'foresight-overlay-'));
      const base = relative(realpathSync(overlay), join(ROOT, FIXTURES, 'base'));
      writeFileSync(
        join(overlay, 'kustomization.yaml'),
        `resources:\n  - ${base}\npatches:\n  - patch: |-\n      - op: replace\n        path: /spec/template/spec/containers/0/resources/requests/cpu\n        value: "64"\n    target:\n      kind: Deployment\n`,
      );
      const result = await runForesight(['simulate', '-o', 'sarif', overlay], { env: ENV });
      assert.equal(result.code, 1, result.stdout);
      const sarif = JSON.parse(result.stdout) as {
        runs: {
          results: {
            ruleId: string;
            locations: {
              physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } };
            }[];
          }[];
        }[];
      };
      const pending = sarif.runs[0]?.results.find((entry) => entry.ruleId === 'pod-unschedulable');
      const location = pending?.locations[0]?.physicalLocation;
      // Line 7 of the overlay's kustomization.yaml: the inline JSON 6902 patch's `value: "64"` (the base's line
      // 15, `cpu: 100m`, is not what made the pod too big).
      assert.deepEqual(
        [location?.artifactLocation.uri, location?.region.startLine],
        [relative(ROOT, join(realpathSync(overlay), 'kustomization.yaml')), 7],
      );
    },
  );

  test(
    'a validation error a strategic-merge patch file wrote is reported on that patch, in every format',
    needsKustomize,
    async () => {
      assertKustomizeFound();
      const overlay = realpathSync(mkdtempSync(join(tmpdir(), 'foresight-overlay-')));
      const base = relative(overlay, join(ROOT, FIXTURES, 'base'));
      writeFileSync(
        join(overlay, 'kustomization.yaml'),
        `resources:\n  - ${base}\npatches:\n  - path: memory.yaml\n`,
      );
      writeFileSync(
        join(overlay, 'memory.yaml'),
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n        - name: web\n          resources:\n            requests:\n              memory: 128mb\n',
      );
      const patch = relative(ROOT, join(overlay, 'memory.yaml'));
      const text = await runForesight(['validate', overlay], { env: ENV });
      assert.equal(text.code, 1, text.stdout);
      // Line 12, column 15: `memory: 128mb` ("mb" is not a suffix of a Kubernetes quantity).
      const lines = text.stdout.split('\n').filter((line) => /^\S+:\d+:\d+: error /.test(line));
      assert.equal(lines.length, 1, text.stdout);
      assert.ok(lines[0]?.startsWith(`${patch}:12:15: error invalid-quantity `), text.stdout);
      const junit = await runForesight(['validate', '-o', 'junit', overlay], { env: ENV });
      assert.match(junit.stdout, new RegExp(`${patch.replace(/[.]/g, '\\.')}:12:15`));
    },
  );

  test(
    "a broken kustomization gives kustomize's message on its kustomization.yaml",
    needsKustomize,
    async () => {
      assertKustomizeFound();
      const result = await runForesight(['validate', `${FIXTURES}/broken`], { env: ENV });
      assert.equal(result.code, 1, result.stdout);
      assert.match(
        result.stdout,
        /^test\/fixtures\/kustomize\/broken\/kustomization\.yaml:1:1: error unit-not-rendered test\/fixtures\/kustomize\/broken was not checked: .*kustomize could not render it: .*missing\.yaml: no such file or directory/m,
      );
      const simulate = await runForesight(['simulate', `${FIXTURES}/broken`], { env: ENV });
      assert.equal(simulate.code, 1, simulate.stdout);
    },
  );

  test(
    'a Component named as the folder to apply is rendered as `kubectl apply -k` renders it, its findings on its files',
    needsKustomize,
    async () => {
      assertKustomizeFound();
      // kubeflow/manifests' common/oauth2-proxy/components/istio-m2m: a Component with resources of its own.
      // `kubectl kustomize DIR` renders it; a wrapper naming it under resources fails ("expected kind !=
      // 'Component'"), so it is named under components.
      const folder = mkdtempSync(join(tmpdir(), 'foresight-component-'));
      writeFileSync(
        join(folder, 'kustomization.yaml'),
        'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources:\n  - quota.yaml\n',
      );
      writeFileSync(
        join(folder, 'quota.yaml'),
        'apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: q\nspec:\n  hard:\n    pods: 10x\n',
      );
      const result = await runForesight(['validate', folder], { env: ENV, cwd: folder });
      assert.equal(result.code, 1, result.stdout);
      assert.doesNotMatch(result.stdout, /unit-not-rendered/);
      assert.match(result.stdout, /^quota\.yaml:7:11: error \S+ /m);
      assert.match(result.stdout, /2 file\(s\) read, 1 apply unit, 1 object\(s\)/);
    },
  );

  test(
    "simulate DIR applies the render in kustomize's order, as kubectl apply -k does, not file by file",
    needsKustomize,
    async () => {
      assertKustomizeFound();
      // kustomize sorts by kind, then name: ServiceAccount zeta, Deployment alpha, Deployment zeta. Read file by file,
      // a.yaml (the first object of the stream) would be applied whole first, and zeta's pods scheduled first.
      const folder = mkdtempSync(join(tmpdir(), 'foresight-apply-order-'));
      const deployment = (name: string, extra: string): string =>
        `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: ${name}}}\n  template:\n    metadata: {labels: {app: ${name}}}\n    spec:\n${extra}      containers:\n        - {name: app, image: nginx:1.27, resources: {requests: {cpu: 100m, memory: 64Mi}}}\n`;
      writeFileSync(join(folder, 'kustomization.yaml'), 'resources:\n  - a.yaml\n  - b.yaml\n');
      writeFileSync(
        join(folder, 'a.yaml'),
        `apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: zeta\n---\n${deployment('zeta', '      serviceAccountName: zeta\n')}`,
      );
      writeFileSync(join(folder, 'b.yaml'), deployment('alpha', ''));
      const events = (stdout: string): string[] =>
        (
          JSON.parse(stdout) as {
            events: { type: string; object?: { name?: string }; node?: string }[];
          }
        ).events.map((event) => `${event.type} ${event.object?.name ?? ''} ${event.node ?? ''}`);
      const direct = await runForesight(['simulate', '-o', 'json', folder], { env: ENV });
      const rendered = await runForesight(['simulate', '-o', 'json', '-'], {
        env: ENV,
        stdin: execFileSync('kubectl', ['kustomize', folder], { encoding: 'utf8' }),
      });
      assert.equal(direct.code, 0, direct.stdout + direct.stderr);
      assert.equal(rendered.code, 0, rendered.stdout + rendered.stderr);
      const rollouts = events(direct.stdout).filter((event) => event.startsWith('RolloutStep'));
      assert.deepEqual(
        rollouts.slice(0, 2).map((event) => event.split(' ')[1]),
        ['alpha', 'zeta'],
      );
      assert.deepEqual(events(direct.stdout), events(rendered.stdout));
    },
  );

  test('no config.kubernetes.io/origin annotation reaches a report', needsKustomize, async () => {
    assertKustomizeFound();
    for (const args of [
      ['simulate', '-o', 'json', `${FIXTURES}/overlays/prod`],
      ['simulate', '-o', 'sarif', `${FIXTURES}/overlays/prod`],
      ['validate', '-o', 'json', `${FIXTURES}/overlays/dev`],
    ]) {
      const result = await runForesight(args, { env: ENV });
      assert.doesNotMatch(result.stdout, /config\.kubernetes\.io\/origin/, args.join(' '));
    }
  });

  test(
    'with -R each overlay is rendered once and the base and patch files are not read raw',
    needsKustomize,
    async () => {
      assertKustomizeFound();
      const result = await runForesight(['validate', '-R', `${FIXTURES}/overlays`], { env: ENV });
      assert.equal(result.code, 0, result.stdout);
      assert.doesNotMatch(result.stdout, /replicas\.yaml|json-patch|kustomization\.yaml/);
    },
  );

  test(
    'with -R two overlays of one base are two applies (one overlap note, no duplicate) and a lone Component is not rendered',
    needsKustomize,
    async () => {
      assertKustomizeFound();
      const folder = 'test/fixtures/kustomize-alternatives';
      const result = await runForesight(['validate', '-R', folder], { env: ENV });
      assert.equal(result.code, 0, result.stdout);
      assert.deepEqual(
        result.stdout
          .split('\n')
          .filter((line) => line.startsWith(folder))
          .map((line) => line.split(' ').slice(0, 3).join(' ')),
        [`${folder}/base/deployment.yaml:4:9: information kustomizations-overlap`],
      );
      assert.match(result.stdout, /0 error\(s\), 1 other finding\(s\)/);
    },
  );

  test(
    'a kubebuilder-style folder (examples/operator): no error, one note naming the unlisted fragment, and simulate DIR predicts what kubectl kustomize DIR | simulate - does',
    needsKustomize,
    async () => {
      assertKustomizeFound();
      const validate = await runForesight(['validate', '-R', 'examples/operator'], { env: ENV });
      assert.equal(validate.code, 0, validate.stdout);
      assert.deepEqual(
        validate.stdout
          .split('\n')
          .filter((line) => line.startsWith('examples/'))
          .map((line) => line.split(' ').slice(0, 3).join(' ')),
        ['examples/operator/config/default/kustomization.yaml:1:1: information unit-file-unlisted'],
      );
      assert.match(
        validate.stdout,
        /manager_webhook_patch\.yaml is beside a kustomization that does not list it/,
      );
      const folder = 'examples/operator/config/default';
      const direct = await runForesight(['simulate', '-o', 'json', folder], { env: ENV });
      // The folder is simulated on its nearest cluster file, examples/.foresight/cluster.yaml; the render piped
      // in is given it.
      const rendered = await runForesight(
        ['simulate', '-o', 'json', '--cluster', 'examples/.foresight/cluster.yaml', '-'],
        {
          env: ENV,
          stdin: execFileSync('kubectl', ['kustomize', folder], { cwd: ROOT, encoding: 'utf8' }),
        },
      );
      assert.equal(direct.code, rendered.code, direct.stdout + rendered.stdout);
      const outcome = (stdout: string): unknown => {
        const report = JSON.parse(stdout) as {
          pods: { name: string; namespace: string; nodeName: string | null }[];
          findings: { code: string; severity: string }[];
        };
        return {
          pods: report.pods.map((pod) => [pod.namespace, pod.name, pod.nodeName]),
          findings: report.findings
            .filter((finding) => finding.code !== 'unit-file-unlisted')
            .map((finding) => [finding.code, finding.severity]),
        };
      };
      assert.deepEqual(outcome(direct.stdout), outcome(rendered.stdout));
    },
  );

  test('a --kustomize binary that cannot be run is an error on the kustomization', async () => {
    const result = await runForesight(
      ['validate', '--kustomize', '/nonexistent/kustomize', `${FIXTURES}/overlays/prod`],
      { env: ENV },
    );
    assert.equal(result.code, 1, result.stdout);
    assert.match(
      result.stdout,
      /overlays\/prod\/kustomization\.yaml:1:1: error unit-not-rendered .*could not be run/,
    );
  });
});

describe('foresight on kustomization folders (no render)', () => {
  test('a kustomize that fails shows its stderr, and is run without plugins, exec or Helm', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'foresight-fake-kustomize-'));
    const fake = join(bin, 'kustomize');
    writeFileSync(fake, '#!/bin/sh\necho "fake kustomize was given: $*" >&2\nexit 3\n');
    chmodSync(fake, 0o755);
    const result = await runForesight(['validate', `${FIXTURES}/overlays/prod`], {
      env: { PATH: '', FORESIGHT_KUSTOMIZE: fake },
    });
    assert.equal(result.code, 1, result.stdout);
    const message = /unit-not-rendered (.*)$/m.exec(result.stdout)?.[1] ?? '';
    assert.match(message, /fake kustomize was given: build <wrapper>\./);
    assert.doesNotMatch(message, /--enable/);
  });

  test('a kustomize that runs past the time limit is stopped, and the error says so', () => {
    const bin = mkdtempSync(join(tmpdir(), 'foresight-slow-kustomize-'));
    const slow = join(bin, 'kustomize');
    writeFileSync(slow, '#!/bin/sh\nexec sleep 30\n');
    chmodSync(slow, 0o755);
    const started = process.hrtime.bigint();
    const result = renderKustomization({ file: slow, args: ['build'] }, join(ROOT, FIXTURES, 'base'), 300);
    assert.ok(Number(process.hrtime.bigint() - started) / 1e9 < 10, 'not stopped at the time limit');
    assert.deepEqual(result, { ok: false, message: `${slow} did not finish within 0.3 s and was stopped` });
  });

  const remoteCases: [string, boolean][] = [
    ['https://github.com/org/repo//deploy?ref=v1', true],
    ['github.com/org/repo/deploy?ref=main', true],
    ['git@github.com:org/repo.git', true],
    ['git::https://example.com/repo.git', true],
    ['example.com/team/repo.git//base', true],
    ['../../base', false],
    ['deployment.yaml', false],
  ];
  for (const [entry, isRemote] of remoteCases) {
    test(`the resource ${entry} is ${isRemote ? '' : 'not '}remote`, () => {
      assert.equal(isRemoteResource(entry), isRemote);
    });
  }

  test('a remote base is one error saying what was not checked and how to check it; its files are not read raw', async () => {
    const result = await runForesight(['validate', `${FIXTURES}/remote`], { env: ENV });
    assert.equal(result.code, 1, result.stdout);
    const errors = result.stdout.split('\n').filter((line) => /: error /.test(line));
    assert.equal(errors.length, 1, result.stdout);
    assert.match(
      errors[0] ?? '',
      /^test\/fixtures\/kustomize\/remote\/kustomization\.yaml:1:1: error unit-not-rendered test\/fixtures\/kustomize\/remote was not checked: .*https:\/\/github\.com\/kubernetes-sigs\/kustomize.*--kustomize-allow-remote/,
    );
    assert.match(result.stdout, /^0 file\(s\) read, 1 apply unit, 0 object\(s\)/m);
    const simulate = await runForesight(['simulate', `${FIXTURES}/remote`], { env: ENV });
    assert.equal(simulate.code, 1, simulate.stdout);
    assert.match(simulate.stdout, /error: .*\[unit-not-rendered\]/);
  });

  test('the note on files a kustomization does not list names the Kubernetes objects only, not a tool settings or dashboard JSON', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'foresight-unlisted-'));
    const configMap = (name: string): string =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;
    writeFileSync(join(folder, 'kustomization.yaml'), 'resources:\n  - listed.yaml\n');
    writeFileSync(join(folder, 'listed.yaml'), configMap('listed'));
    writeFileSync(join(folder, 'forgotten.yaml'), configMap('forgotten'));
    writeFileSync(
      join(folder, 'minified.json'),
      '{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"}}',
    );
    writeFileSync(join(folder, 'jsonnetfile.json'), '{\n  "version": 1,\n  "dependencies": []\n}\n');
    writeFileSync(
      join(folder, 'alertmanager.yaml'),
      'global:\n  resolve_timeout: 10m\nroute:\n  receiver: x\n',
    );
    const result = await runForesight(['validate', folder], { env: { PATH: '' } });
    const notes = result.stdout.split('\n').filter((line) => line.includes('unit-file-unlisted'));
    assert.equal(notes.length, 1, result.stdout);
    assert.match(
      notes[0] ?? '',
      /: forgotten\.yaml, minified\.json are beside a kustomization that does not list them/,
    );
    // Nothing is read as a plain manifest either way (the unit is not rendered without kustomize).
    assert.match(result.stdout, /^0 file\(s\) read, 1 apply unit, 0 object\(s\)/m);
  });

  test('without kustomize on PATH: one error per unit saying how to install it, and no file read raw', async () => {
    const result = await runForesight(['validate', '-R', `${FIXTURES}/overlays`], { env: { PATH: '' } });
    assert.equal(result.code, 1, result.stdout);
    const errors = result.stdout.match(/error unit-not-rendered .*Install kubectl/g) ?? [];
    // The dev and prod overlays: two units, neither read file by file.
    assert.equal(errors.length, 2, result.stdout);
    assert.match(result.stdout, /^0 file\(s\) read, 2 apply units, 0 object\(s\)/m);
  });
});
