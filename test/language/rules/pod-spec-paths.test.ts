import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { podMetadataPath, podSpecPaths } from '../../../server/src/language/kubernetes/pod-spec-paths';

const cases: {
  name: string;
  apiVersion: string;
  kind: string;
  specs: (string | number)[][];
  metadata: (string | number)[][];
}[] = [
  {
    name: 'a Pod has its own spec and metadata',
    apiVersion: 'v1',
    kind: 'Pod',
    specs: [['spec']],
    metadata: [['metadata']],
  },
  {
    name: 'a Deployment has one pod template',
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    specs: [['spec', 'template', 'spec']],
    metadata: [['spec', 'template', 'metadata']],
  },
  {
    name: 'a ReplicationController of the core group has one pod template',
    apiVersion: 'v1',
    kind: 'ReplicationController',
    specs: [['spec', 'template', 'spec']],
    metadata: [['spec', 'template', 'metadata']],
  },
  {
    name: 'a CronJob has its pod template inside its job template',
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    specs: [['spec', 'jobTemplate', 'spec', 'template', 'spec']],
    metadata: [['spec', 'jobTemplate', 'spec', 'template', 'metadata']],
  },
  {
    name: 'a PodTemplate has its template at the top',
    apiVersion: 'v1',
    kind: 'PodTemplate',
    specs: [['template', 'spec']],
    metadata: [['template', 'metadata']],
  },
  { name: 'a Service has no pod spec', apiVersion: 'v1', kind: 'Service', specs: [], metadata: [] },
  {
    name: 'a Deployment of a custom group has no known pod spec',
    apiVersion: 'example.com/v1',
    kind: 'Deployment',
    specs: [],
    metadata: [],
  },
];

void describe('podSpecPaths', () => {
  for (const { name, apiVersion, kind, specs, metadata } of cases) {
    void test(name, () => {
      const paths = podSpecPaths({ apiVersion, kind });
      assert.deepEqual(paths, specs);
      assert.deepEqual(paths.map(podMetadataPath), metadata);
    });
  }
});
