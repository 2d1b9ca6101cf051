import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findKustomize } from '../../server/src/files/kustomize/render-kustomization';
import { runForesight } from './cli-harness';

// A kustomize `$(VAR)` that survives the render (a var kustomize does not replace: undeclared, or in a field that
// is no varReference) reaches the API server as written. In container args, command and env values it is
// Kubernetes' own variable syntax (expanded by the kubelet, kept literally when undefined:
// https://kubernetes.io/docs/tasks/inject-data-application/define-interdependent-environment-variables/), so no
// finding; in a name or a label value the API server refuses it, so the error stays, on the line of the source
// file that wrote it (a resource file of several documents included).

const ENV = { PATH: process.env['PATH'] ?? '' };
const MISSING = 'neither kubectl nor kustomize is on PATH';
const needsKustomize = {
  skip:
    findKustomize(process.env['FORESIGHT_KUSTOMIZE'], process.env['PATH']) === undefined &&
    process.env['CI'] !== 'true'
      ? MISSING
      : false,
};

const KUSTOMIZATION = `resources:
  - app.yaml
vars:
  - name: SVC_NAME
    objref: { kind: Service, name: web, apiVersion: v1 }
    fieldref: { fieldpath: metadata.name }
`;

const APP = `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: { app: web }
  ports: [{ port: 80 }]
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    peer: $(PEER_LABEL)
spec:
  selector: { matchLabels: { app: web } }
  template:
    metadata:
      labels: { app: web }
    spec:
      containers:
        - name: app
          image: nginx:1.27
          args: ["--peer=$(SVC_NAME)", "--other=$(UNDECLARED)"]
          command: ["run", "$(UNDECLARED)"]
          env:
            - name: TARGET
              value: $(SVC_NAME).$(NAMESPACE).svc
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: $(CM_NAME)
data:
  a: $(SVC_NAME)
`;

describe('kustomize $(VAR) text after a render', () => {
  test(
    'args, command and env values keep $(…) without a finding; a name and a label value are refused, on their lines',
    needsKustomize,
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'foresight-vars-'));
      writeFileSync(join(folder, 'kustomization.yaml'), KUSTOMIZATION);
      writeFileSync(join(folder, 'app.yaml'), APP);
      const result = await runForesight(['validate', '-o', 'json', '.'], { cwd: folder, env: ENV });
      const report = JSON.parse(result.stdout) as {
        findings: { file: string; line: number; code: string; message: string }[];
      };
      assert.deepEqual(
        report.findings.map((finding) => `${finding.file}:${String(finding.line)} ${finding.code}`).sort(),
        ['app.yaml:14 invalid-label-value', 'app.yaml:33 invalid-name'],
      );
      assert.equal(result.code, 1);
    },
  );
});
