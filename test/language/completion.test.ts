import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CompletionItem, TextEdit } from 'vscode-languageserver-protocol';
import { completeAt } from '../../server/src/language/assist/completion';
import { schemaStore, textOf, withCursor } from './hover-harness';

interface CompletionCase {
  readonly name: string;
  /** The text with the cursor as "‸". */
  readonly text: string;
  /** Labels that must be offered. */
  readonly offers?: readonly string[];
  /** Labels that must not be offered. */
  readonly omits?: readonly string[];
  /** The exact labels in the order of their sortText, when the whole list matters. */
  readonly exactly?: readonly string[];
  /** For one label: the text that accepting it writes and the text its edit replaces. */
  readonly edit?: { readonly label: string; readonly newText: string; readonly replaces: string };
}

const CASES: readonly CompletionCase[] = [
  {
    name: 'inside a Deployment spec the keys of DeploymentSpec are offered, without the ones already there',
    text: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template: {}\n  ‸\n',
    offers: ['replicas', 'selector', 'strategy', 'minReadySeconds'],
    omits: ['template', 'name', 'spec', 'containers'],
  },
  {
    name: 'a key being typed on its own line (not yet valid YAML) is completed from the keys of its mapping',
    text: 'apiVersion: apps/v1\nkind: Deployment\nspec:\n  selector: {}\n  rep‸\n  template: {}\n',
    offers: ['replicas'],
    omits: ['selector', 'template'],
    edit: { label: 'replicas', newText: 'replicas: ', replaces: 'rep' },
  },
  {
    name: 'required keys sort before optional ones',
    text: 'apiVersion: apps/v1\nkind: Deployment\nspec:\n  ‸\n',
    offers: ['selector', 'template', 'replicas'],
  },
  {
    name: 'an object key inserts a new line indented two more columns than the key',
    text: 'apiVersion: apps/v1\nkind: Deployment\nspec:\n  str‸\n',
    edit: { label: 'strategy', newText: 'strategy:\n    ', replaces: 'str' },
  },
  {
    name: 'a list-of-objects key inserts its first item',
    text: 'apiVersion: v1\nkind: Pod\nspec:\n  ‸\n',
    edit: { label: 'containers', newText: 'containers:\n    - ', replaces: '' },
  },
  {
    name: 'the line ends as the file does (CRLF)',
    text: 'apiVersion: v1\r\nkind: Pod\r\nspec:\r\n  ‸\r\n',
    edit: { label: 'securityContext', newText: 'securityContext:\r\n    ', replaces: '' },
  },
  {
    name: 'a key already followed by a colon is replaced alone',
    text: 'apiVersion: apps/v1\nkind: Deployment\nspec:\n  repl‸icaz: 3\n',
    edit: { label: 'replicas', newText: 'replicas', replaces: 'replicaz' },
  },
  {
    name: 'a new list item offers the keys of the item type, required ones included',
    text: 'apiVersion: v1\nkind: Pod\nspec:\n  containers:\n    - name: a\n      image: x\n    - ‸\n',
    offers: ['name', 'image', 'ports', 'imagePullPolicy'],
    omits: ['containers', 'nodeName'],
  },
  {
    name: 'a key under the first key of a list item skips the keys that item has',
    text: 'apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: web\n    ‸\n    image: nginx\n',
    offers: ['ports', 'env', 'resources'],
    omits: ['name', 'image'],
  },
  {
    name: 'the value of imagePullPolicy offers Always, IfNotPresent and Never',
    text: 'apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: web\n    imagePullPolicy: ‸\n',
    exactly: ['Always', 'Never', 'IfNotPresent'],
  },
  {
    name: 'a partly typed enum value is replaced whole',
    text: 'apiVersion: v1\nkind: Service\nspec:\n  type: Node‸Port\n',
    edit: { label: 'LoadBalancer', newText: 'LoadBalancer', replaces: 'NodePort' },
  },
  {
    name: 'a value right after the colon gets a space before it',
    text: 'apiVersion: v1\nkind: Pod\nspec:\n  restartPolicy:‸\n',
    edit: { label: 'OnFailure', newText: ' OnFailure', replaces: '' },
  },
  {
    name: 'a boolean field offers true and false',
    text: 'apiVersion: v1\nkind: Pod\nspec:\n  hostNetwork: ‸\n',
    exactly: ['true', 'false'],
  },
  {
    name: 'an item of a list of enum values offers the values',
    text: 'apiVersion: v1\nkind: PersistentVolumeClaim\nspec:\n  accessModes:\n  - ‸\n',
    exactly: ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'],
  },
  {
    name: 'kind offers the kinds apps/v1 serves',
    text: 'apiVersion: apps/v1\nkind: ‸\n',
    offers: ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet'],
    omits: ['Pod', 'Service', 'List'],
  },
  {
    name: 'kind under v1 also offers List',
    text: 'apiVersion: v1\nkind: ‸\n',
    offers: ['Pod', 'Service', 'ConfigMap', 'List'],
    omits: ['Deployment'],
  },
  {
    name: 'apiVersion offers the apiVersions serving the kind',
    text: 'apiVersion: ‸\nkind: HorizontalPodAutoscaler\n',
    exactly: ['autoscaling/v2', 'autoscaling/v1'],
  },
  {
    name: 'apiVersion without a kind offers every apiVersion',
    text: 'apiVersion: ‸\n',
    offers: ['v1', 'apps/v1', 'batch/v1', 'networking.k8s.io/v1'],
  },
  {
    name: 'the second document of a file is completed from its own kind',
    text: 'apiVersion: v1\nkind: Pod\nspec: {}\n---\napiVersion: v1\nkind: Service\nspec:\n  ‸\n',
    offers: ['ports', 'type', 'selector'],
    omits: ['containers'],
  },
  {
    name: 'an item of a List is completed from its own kind',
    text: 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: apps/v1\n  kind: Deployment\n  spec:\n    ‸\n',
    offers: ['replicas', 'template'],
  },
  {
    name: 'the top of an object offers metadata and spec but not status, which controllers write',
    text: 'apiVersion: apps/v1\nkind: Deployment\n‸\n',
    exactly: ['metadata', 'spec'],
  },
  {
    name: 'a document with apiVersion but no kind yet offers kind',
    text: 'apiVersion: apps/v1\n‸\n',
    exactly: ['kind'],
  },
  {
    name: 'YAML that is not a Kubernetes object gets nothing',
    text: 'services:\n  web:\n    ‸\n',
    exactly: [],
  },
  {
    name: 'the text of a block scalar gets nothing',
    text: 'apiVersion: v1\nkind: ConfigMap\ndata:\n  script: |\n    echo hi\n    ‸x\n',
    exactly: [],
  },
  {
    name: 'a comment gets nothing',
    text: 'apiVersion: v1\nkind: Pod\nspec:\n  # rep‸\n',
    exactly: [],
  },
];

function sortedLabels(items: readonly CompletionItem[]): string[] {
  return [...items]
    .sort((a, b) => (a.sortText ?? '').localeCompare(b.sortText ?? ''))
    .map((item) => item.label);
}

void describe('completeAt', () => {
  for (const completionCase of CASES) {
    void test(completionCase.name, () => {
      const { text, offset, analysis } = withCursor(completionCase.text);
      const items = completeAt(analysis, text, offset, schemaStore());
      const labels = items.map((item) => item.label);
      for (const label of completionCase.offers ?? []) {
        assert.ok(labels.includes(label), `missing ${label} in ${labels.join(', ')}`);
      }
      for (const label of completionCase.omits ?? []) {
        assert.ok(!labels.includes(label), `unexpected ${label}`);
      }
      if (completionCase.exactly !== undefined) {
        assert.deepEqual(sortedLabels(items), completionCase.exactly);
      }
      if (completionCase.edit !== undefined) {
        const item = items.find((candidate) => candidate.label === completionCase.edit?.label);
        assert.ok(item !== undefined, `missing ${completionCase.edit.label} in ${labels.join(', ')}`);
        const edit = item.textEdit as TextEdit;
        assert.equal(edit.newText, completionCase.edit.newText);
        assert.equal(textOf(text, edit.range), completionCase.edit.replaces);
      }
    });
  }

  void test('a key item carries its type, requiredness and description', () => {
    const { text, offset, analysis } = withCursor('apiVersion: apps/v1\nkind: Deployment\nspec:\n  ‸\n');
    const items = completeAt(analysis, text, offset, schemaStore());
    const selector = items.find((item) => item.label === 'selector');
    const replicas = items.find((item) => item.label === 'replicas');
    assert.equal(selector?.detail, 'LabelSelector (required)');
    assert.equal(replicas?.detail, 'integer');
    assert.ok((selector?.sortText ?? '') < (replicas?.sortText ?? ''));
    assert.match(JSON.stringify(replicas?.documentation), /Number of desired pods/);
  });
});
