/**
 * `foresight validate -R` on a generated kustomize tree of about 500 files (issue #27): several apps, each a base
 * of plain resources, a Component, and three overlays (dev, staging, prod) with strategic-merge and JSON 6902
 * patches, as a kustomize monorepo is laid out. `-R` finds the overlays as apply units (the bases and components
 * are rendered as part of them), runs kustomize once per unit, and checks each render. Reports wall and CPU time
 * and peak memory of the CLI process per run after one warm-up run; the kustomize processes it spawns are not in
 * the CPU and memory figures (they are in the wall time).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runNode } from './support/child-run';
import type { Summary } from './support/stats';
import { summarize } from './support/stats';

/** The kustomize tree section of the report. */
export interface KustomizeTreeReport {
  readonly files: number;
  readonly apps: number;
  /** Apply units the run reported ("N apply units" of its summary line). */
  readonly units: number;
  readonly wallMs: Summary;
  readonly cpuMs: Summary;
  readonly peakRssMiB: Summary;
  readonly exitCode: number | null;
  readonly reportedErrors: number;
}

/** Sizes and repeats of a run. */
export interface KustomizeTreeOptions {
  readonly apps: number;
  /** Plain resource files in each app's base. */
  readonly baseFiles: number;
  readonly repeats: number;
  readonly workDir: string;
  readonly log: (line: string) => void;
}

const OVERLAYS = ['dev', 'staging', 'prod'] as const;

function deployment(app: string, index: number): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${app}-svc-${index}
  labels: { app: ${app}, part: svc-${index} }
spec:
  replicas: 1
  selector:
    matchLabels: { app: ${app}, part: svc-${index} }
  template:
    metadata:
      labels: { app: ${app}, part: svc-${index} }
    spec:
      containers:
        - name: main
          image: registry.example.com/${app}/svc-${index}:1.4.${index}
          ports: [{ containerPort: 8080, name: http }]
          resources:
            requests: { cpu: 50m, memory: 64Mi }
            limits: { memory: 128Mi }
          readinessProbe: { httpGet: { path: /ready, port: http } }
`;
}

function service(app: string, index: number): string {
  return `apiVersion: v1
kind: Service
metadata:
  name: ${app}-svc-${index}
spec:
  selector: { app: ${app}, part: svc-${index} }
  ports: [{ port: 80, targetPort: http }]
`;
}

/** Writes one app: base/, components/monitoring/, overlays/*; returns the number of files written. */
function writeApp(root: string, app: string, baseFiles: number): number {
  let files = 0;
  const write = (path: string, text: string): void => {
    mkdirSync(join(root, app, path, '..'), { recursive: true });
    writeFileSync(join(root, app, path), text);
    files++;
  };
  const resources: string[] = [];
  for (let index = 0; index < baseFiles; index++) {
    const name = index % 2 === 0 ? `deployment-${index}.yaml` : `service-${index - 1}.yaml`;
    write(`base/${name}`, index % 2 === 0 ? deployment(app, index) : service(app, index - 1));
    resources.push(name);
  }
  write('base/kustomization.yaml', `resources:\n${resources.map((name) => `  - ${name}\n`).join('')}`);
  write(
    'components/monitoring/kustomization.yaml',
    'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources:\n  - monitor-config.yaml\n',
  );
  write(
    'components/monitoring/monitor-config.yaml',
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${app}-monitoring\ndata:\n  scrape: "true"\n`,
  );
  for (const overlay of OVERLAYS) {
    write(
      `overlays/${overlay}/kustomization.yaml`,
      `resources:\n  - ../../base\ncomponents:\n  - ../../components/monitoring\nnamespace: ${app}-${overlay}\n` +
        `labels:\n  - pairs: { env: ${overlay} }\n` +
        `patches:\n  - path: replicas.yaml\n  - path: memory.yaml\n  - path: image.yaml\n` +
        `    target: { kind: Deployment, name: ${app}-svc-0 }\n`,
    );
    write(
      `overlays/${overlay}/replicas.yaml`,
      `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${app}-svc-0\nspec:\n  replicas: ${overlay === 'prod' ? 3 : 1}\n`,
    );
    write(
      `overlays/${overlay}/memory.yaml`,
      `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${app}-svc-2\nspec:\n  template:\n    spec:\n      containers:\n        - name: main\n          resources: { limits: { memory: 256Mi } }\n`,
    );
    write(
      `overlays/${overlay}/image.yaml`,
      `- op: replace\n  path: /spec/template/spec/containers/0/image\n  value: registry.example.com/${app}/svc-0:${overlay}\n`,
    );
  }
  return files;
}

/** Writes the tree; returns its root and file count. */
function writeTree(options: KustomizeTreeOptions): { root: string; files: number } {
  const root = join(options.workDir, 'kustomize-tree');
  let files = 0;
  for (let app = 0; app < options.apps; app++) {
    files += writeApp(root, `app${app}`, options.baseFiles);
  }
  return { root, files };
}

/** Runs the kustomize tree benchmark. */
export async function benchKustomizeTree(options: KustomizeTreeOptions): Promise<KustomizeTreeReport> {
  const { root, files } = writeTree(options);
  const cli = join(__dirname, '..', 'dist', 'cli.js');
  await runNode(cli, ['validate', '-R', root]);
  const runs = [];
  for (let i = 0; i < options.repeats; i++) {
    runs.push(await runNode(cli, ['validate', '-R', root]));
  }
  const last = runs[runs.length - 1];
  const stdout = last?.stdout ?? '';
  const report: KustomizeTreeReport = {
    files,
    apps: options.apps,
    units: Number(/(\d+) apply units?/.exec(stdout)?.[1] ?? NaN),
    wallMs: summarize(runs.map((run) => run.wallMs)),
    cpuMs: summarize(runs.map((run) => run.cpuMs)),
    peakRssMiB: summarize(runs.map((run) => run.peakRssMiB)),
    exitCode: last?.exitCode ?? null,
    reportedErrors: stdout.split('\n').filter((line) => /:\d+:\d+: error /.test(line)).length,
  };
  options.log(
    `foresight validate -R on a kustomize tree of ${files} files (${report.units} units): ` +
      `${Math.round(report.wallMs.median)} ms wall, ${Math.round(report.peakRssMiB.median)} MiB, exit ${String(report.exitCode)}`,
  );
  return report;
}
