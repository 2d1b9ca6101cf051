/**
 * Required fields the API server defaults before it validates (schema/server-defaults.ts): an object without
 * them is accepted by `kubectl apply`, so it gets no "missing required field". Each row follows a defaulting
 * function of pkg/apis/<group>/<version>/defaults.go.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getAnalysisContext } from '../../support/language-service';
import { analyzeText } from '../../../server/src/language/analyzer';

const CONTEXT = getAnalysisContext('1.35', 8192 * 1024);

function codes(text: string): string[] {
  return analyzeText(text, CONTEXT).findings.map((finding) => `${finding.code} ${finding.message}`);
}

const binding = (kind: string, roleRef: string): string =>
  [
    'apiVersion: rbac.authorization.k8s.io/v1',
    `kind: ${kind}`,
    'metadata: { name: read, namespace: default }',
    `roleRef: ${roleRef}`,
    'subjects:',
    '  - { kind: User, name: jane }',
    '',
  ].join('\n');

describe('fields the API server defaults are not required', () => {
  test('SetDefaults_RoleBinding: roleRef.apiGroup defaults to rbac.authorization.k8s.io', () => {
    assert.deepEqual(codes(binding('RoleBinding', '{ kind: Role, name: reader }')), []);
  });

  test('SetDefaults_ClusterRoleBinding: the same for a ClusterRoleBinding', () => {
    assert.deepEqual(codes(binding('ClusterRoleBinding', '{ kind: ClusterRole, name: view }')), []);
  });

  test('a field the API server does not default is still required (roleRef.name)', () => {
    assert.deepEqual(codes(binding('RoleBinding', '{ kind: Role }')), [
      'schema-required Missing required field "name" in roleRef.',
    ]);
  });
});
