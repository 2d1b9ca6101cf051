import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { deprecationNotice, suggestedReplacement } from '../../scripts/schemas/deprecations';

void describe('deprecationNotice', () => {
  const cases: { name: string; description: string; expected: string | undefined }[] = [
    {
      name: 'a "Deprecated:" paragraph at the end of a long description is the notice (v1 Endpoints, 1.33+)',
      description:
        'Endpoints is a collection of endpoints.\n\nEndpoints is a legacy API.\n\nDeprecated: This API is deprecated in v1.33+. Use discoveryv1.EndpointSlice.',
      expected: 'Deprecated: This API is deprecated in v1.33+. Use discoveryv1.EndpointSlice.',
    },
    {
      name: 'a sentence starting with "Deprecated" after another sentence is the notice (v1 Binding)',
      description:
        'Binding ties one object to another. Deprecated in 1.7, please use the bindings subresource of pods instead.',
      expected: 'Deprecated in 1.7, please use the bindings subresource of pods instead.',
    },
    {
      name: 'a description that mentions deprecated fields in passing has no notice',
      description: 'Event is a report. The deprecated fields are kept for compatibility.',
      expected: undefined,
    },
    {
      name: 'a description without the word has no notice',
      description: 'Pod is a collection of containers.',
      expected: undefined,
    },
  ];
  for (const { name, description, expected } of cases) {
    void test(name, () => {
      assert.equal(deprecationNotice(description), expected);
    });
  }
});

void describe('suggestedReplacement', () => {
  const served = ['discovery.k8s.io/v1/EndpointSlice', 'v1/Endpoints', 'v1/Pod', 'apps/v1/Deployment'];
  const cases: { name: string; notice: string; expected: string | undefined }[] = [
    {
      name: 'a Go package alias "discoveryv1" resolves to the group discovery.k8s.io',
      notice: 'Deprecated: This API is deprecated in v1.33+. Use discoveryv1.EndpointSlice.',
      expected: 'discovery.k8s.io/v1/EndpointSlice',
    },
    {
      name: 'the alias "corev1" resolves to the core group',
      notice: 'Deprecated. Use corev1.Pod.',
      expected: 'v1/Pod',
    },
    {
      name: 'a kind the version does not serve is no replacement',
      notice: 'Deprecated. Use appsv1beta2.Deployment.',
      expected: undefined,
    },
    {
      name: 'a notice that names no type has no replacement',
      notice: 'Deprecated: This API is deprecated in v1.19+',
      expected: undefined,
    },
  ];
  for (const { name, notice, expected } of cases) {
    void test(name, () => {
      assert.equal(suggestedReplacement(notice, served), expected);
    });
  }
});
