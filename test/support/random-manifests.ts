/**
 * Random manifests and random keystroke-sized edits of them, for the property tests that compare predictions made
 * keystroke after keystroke with others (from scratch: test/server/incremental-prediction.test.ts; in the
 * prediction worker: test/server/prediction-worker.test.ts). Seeded: the same seed gives the same sequence.
 */
import type { SeededRandom } from '../../server/src/engine/sim/seeded-random';

const CPUS: readonly string[] = ['100m', '250m', '500m', '1', '1500m', '3'];
const MEMORIES: readonly string[] = ['64Mi', '128Mi', '512Mi', '1Gi', '2G', '6Gi'];

/** One generated document: a Deployment, a Service or a ConfigMap. */
export function documentOf(random: SeededRandom, index: number): string {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random.next() * values.length)] as T;
  const kind = Math.floor(random.next() * 4);
  if (kind === 0) {
    return `apiVersion: v1\nkind: Service\nmetadata:\n  name: svc-${index}\nspec:\n  selector:\n    app: app-${index}\n  ports:\n    - port: 80\n`;
  }
  if (kind === 1) {
    return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config-${index}\ndata:\n  level: "${pick(['info', 'debug'])}"\n`;
  }
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-${index}
spec:
  replicas: ${1 + Math.floor(random.next() * 4)}
  selector:
    matchLabels:
      app: app-${index}
  template:
    metadata:
      labels:
        app: app-${index}
    spec:
      containers:
        - name: app
          image: example/app:${index}
          resources:
            requests:
              cpu: ${pick(CPUS)}
              memory: ${pick(MEMORIES)}
`;
}

/** One random keystroke-sized edit of one document: a value changed, a comment, a type error, a document. */
export function edit(random: SeededRandom, documents: string[], next: () => number): void {
  const at = Math.floor(random.next() * documents.length);
  const document = documents[at] ?? '';
  const choice = Math.floor(random.next() * 7);
  const replaced = (pattern: RegExp, value: string): string => document.replace(pattern, value);
  if (choice === 0) {
    documents[at] = replaced(/replicas: \d+/, `replicas: ${Math.floor(random.next() * 6)}`);
  } else if (choice === 1) {
    documents[at] = replaced(/cpu: \S+/, `cpu: ${CPUS[Math.floor(random.next() * CPUS.length)] ?? '1'}`);
  } else if (choice === 2) {
    documents[at] = replaced(/level: "\w+"/, `level: "${random.next() < 0.5 ? 'warn' : 'info'}"`);
  } else if (choice === 3) {
    documents[at] = `# edited ${next()}\n${document}`;
  } else if (choice === 4) {
    documents[at] = replaced(/replicas: \d+/, 'replicas: "2"');
  } else if (choice === 5 && documents.length > 2) {
    documents.splice(at, 1);
  } else {
    documents.splice(at, 0, documentOf(random, next()));
  }
}
