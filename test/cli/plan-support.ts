/**
 * What the plan tests share: the built CLI run as a user runs it (`node dist/cli.js plan …`; `npm test` builds
 * dist/ first), the plan's JSON schema, and the input files of the done-when checks of issue #32.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import type { Plan } from '../../server/src/language/service';
import type { PlanList } from '../../server/src/cli/formats/plan-list';
import type { CliResult } from './cli-harness';
import { ROOT } from './cli-harness';

const CLI = join(ROOT, 'dist', 'cli.js');

/** The captured example's cluster file, and the manifests kept in git beside it. */
export const CAPTURE = 'examples/captured/.foresight/cluster.yaml';
export const CAPTURED_MANIFESTS = readFileSync(join(ROOT, 'examples', 'captured', 'web.yaml'), 'utf8');

/** Runs `node dist/cli.js plan ARGS` from the repository root (or from `cwd`). */
export function runPlanCli(args: readonly string[], cwd: string = ROOT): CliResult {
  const result = spawnSync(process.execPath, [CLI, 'plan', ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '' },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** The plan's JSON, checked against schemas/plan.schema.json (throws with ajv's errors when it does not follow it). */
export function validPlan(json: string): Plan {
  const plan = validPlanDocument(json);
  if (plan.kind !== 'Plan') {
    throw new Error(`expected one Plan, got a ${plan.kind}`);
  }
  return plan;
}

/** A plan's or a plan list's JSON, checked against schemas/plan.schema.json. */
export function validPlanDocument(json: string): Plan | PlanList {
  const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', 'plan.schema.json'), 'utf8')) as object;
  const validate = new Ajv({ strict: true }).compile(schema);
  const plan: unknown = JSON.parse(json);
  if (!validate(plan)) {
    throw new Error(`the plan does not follow schemas/plan.schema.json: ${JSON.stringify(validate.errors)}`);
  }
  return plan as Plan | PlanList;
}

/** A Deployment whose replicas each ask for more than a node of the captured cluster has left. */
export function largeDeployment(name: string, namespace: string, tolerateBurst: boolean): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: ${namespace}}
spec:
  replicas: 3
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
${tolerateBurst ? '      tolerations: [{key: dedicated, value: burst, effect: NoSchedule}]\n' : ''}      containers:
        - name: ${name}
          image: opensearchproject/opensearch:2.18.0
          resources: {requests: {cpu: "3", memory: 8Gi}}
`;
}
