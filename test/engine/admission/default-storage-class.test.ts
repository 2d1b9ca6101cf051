import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  defaultStorageClassName,
  withDefaultStorageClass,
} from '../../../server/src/engine/admission/plugins/default-storage-class';

// Rows of plugin/pkg/admission/storage/storageclass/setdefault/admission_test.go (TestAdmission), by case name.

const SOURCE = { file: 'cluster.yaml', documentIndex: 0, path: [] };

function storageClass(
  name: string,
  isDefault: string | null,
  created = '2026-01-01T00:00:00Z',
  beta = false,
) {
  const key = beta
    ? 'storageclass.beta.kubernetes.io/is-default-class'
    : 'storageclass.kubernetes.io/is-default-class';
  return {
    object: {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: {
        name,
        creationTimestamp: created,
        annotations: isDefault === null ? {} : { [key]: isDefault },
      },
      provisioner: 'example.com/disk',
    },
    source: SOURCE,
  };
}

function claim(storageClassName?: string | null): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'claim', namespace: 'ns' },
    spec: {
      accessModes: ['ReadWriteOnce'],
      ...(storageClassName === undefined ? {} : { storageClassName }),
    },
  };
}

const classOf = (object: Record<string, unknown>): unknown =>
  (object['spec'] as Record<string, unknown>)['storageClassName'];

describe('DefaultStorageClass (setdefault TestAdmission)', () => {
  const defaultClass = storageClass('default1', 'true');
  const classWithFalseDefault = storageClass('nondefault1', 'false');
  const classWithNoDefault = storageClass('nondefault2', null);
  const classWithEmptyDefault = storageClass('nondefault3', '');
  const betaDefault = storageClass('default2', 'true', '2026-01-01T00:00:00Z', true);

  const cases: {
    name: string;
    classes: ReturnType<typeof storageClass>[];
    claim: Record<string, unknown>;
    expected: unknown;
  }[] = [
    {
      name: 'no default, no modification of PVCs',
      classes: [classWithFalseDefault, classWithNoDefault, classWithEmptyDefault],
      claim: claim(),
      expected: undefined,
    },
    {
      name: 'one default, modify PVC with class=nil',
      classes: [defaultClass],
      claim: claim(),
      expected: 'default1',
    },
    {
      name: 'one default, PVC with class=null (nil) is modified',
      classes: [defaultClass],
      claim: claim(null),
      expected: 'default1',
    },
    {
      name: "one default, no modification of PVC with class=''",
      classes: [defaultClass],
      claim: claim(''),
      expected: '',
    },
    {
      name: 'one default, no modification of PVC with class=foo',
      classes: [defaultClass],
      claim: claim('foo'),
      expected: 'foo',
    },
    {
      name: 'one default with the beta annotation, modify PVC with class=nil',
      classes: [betaDefault],
      claim: claim(),
      expected: 'default2',
    },
    {
      name: 'two defaults with the same creation timestamp, choose the one with alphabetical order',
      classes: [storageClass('default-b', 'true'), storageClass('default-a', 'true')],
      claim: claim(),
      expected: 'default-a',
    },
    {
      name: 'two defaults, choose the one with newer creation timestamp',
      classes: [
        storageClass('default-old', 'true', '2025-01-01T00:00:00Z'),
        storageClass('default-new', 'true', '2026-06-01T00:00:00Z'),
      ],
      claim: claim(),
      expected: 'default-new',
    },
  ];
  for (const { name, classes, claim: input, expected } of cases) {
    test(name, () => {
      const admitted = withDefaultStorageClass(input, defaultStorageClassName(classes));
      assert.equal(classOf(admitted), expected);
    });
  }

  test('a claim whose beta class annotation names a class is left alone', () => {
    const annotated = {
      ...claim(),
      metadata: { name: 'c', annotations: { 'volume.beta.kubernetes.io/storage-class': 'slow' } },
    };
    assert.equal(withDefaultStorageClass(annotated, 'default1'), annotated);
  });
});
