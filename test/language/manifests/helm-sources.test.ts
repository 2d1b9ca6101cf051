import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  helmSourcesOf,
  helmTemplateAt,
  nameHelmTemplates,
} from '../../../server/src/language/manifests/helm-sources';
import type { Finding } from '../../../protocol/finding';

// helm template output: each document is `---`, `# Source: CHART/templates/FILE`, then the manifest
// (helm pkg/action renderResources); a finding on a line of it is named after that template.

const RENDER = [
  '---',
  '# Source: web/templates/service.yaml',
  'apiVersion: v1',
  'kind: Service',
  '---',
  '# Source: web/charts/redis/templates/statefulset.yaml',
  'apiVersion: apps/v1',
  'kind: StatefulSet',
  '---',
  'apiVersion: v1',
  'kind: ConfigMap',
  '# Source: not/the/first/line.yaml',
].join('\n');

const at = (line: number): Finding => ({
  code: 'schema-enum',
  severity: 'error',
  message: 'm',
  place: { file: 'out.yaml', start: { line, character: 0 }, end: { line, character: 1 } },
});

describe('the chart template of each document of helm template output', () => {
  const cases: { name: string; line: number; template: string | undefined }[] = [
    {
      name: 'a line of the first document is named after its # Source: comment',
      line: 3,
      template: 'web/templates/service.yaml',
    },
    {
      name: 'a subchart template keeps its path under charts/',
      line: 7,
      template: 'web/charts/redis/templates/statefulset.yaml',
    },
    {
      name: 'a # Source: comment below the fields still names its document',
      line: 10,
      template: 'not/the/first/line.yaml',
    },
  ];
  for (const entry of cases) {
    test(entry.name, () => {
      assert.equal(helmTemplateAt(helmSourcesOf(RENDER), entry.line), entry.template);
      const [named] = nameHelmTemplates([at(entry.line)], [{ id: 'out.yaml', text: RENDER }]);
      assert.equal(named?.place?.origin?.helmTemplate, entry.template);
    });
  }

  test('a text without # Source: comments names no template, and its findings are unchanged', () => {
    assert.deepEqual(helmSourcesOf('apiVersion: v1\nkind: ConfigMap\n'), []);
    const finding = at(1);
    assert.deepEqual(nameHelmTemplates([finding], [{ id: 'out.yaml', text: 'kind: ConfigMap\n' }]), [
      finding,
    ]);
  });

  test('a finding on another file, or without a line, is not named', () => {
    const other: Finding = { ...at(3), place: { file: 'other.yaml', start: { line: 3, character: 0 } } };
    const whole: Finding = { ...at(3), place: { file: 'out.yaml' } };
    const named = nameHelmTemplates([other, whole], [{ id: 'out.yaml', text: RENDER }]);
    assert.deepEqual(named, [other, whole]);
  });
});
