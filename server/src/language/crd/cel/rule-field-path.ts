/**
 * The fieldPath of an x-kubernetes-validations rule (`.spec.replicas`, `.labels['app.kubernetes.io/name']`),
 * resolved against the rule's schema node as ValidFieldPath does
 * (staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/validation.go): a name is a field where
 * the schema has properties, a map key where it has additionalProperties; quoted names take the escapes \a \b
 * \f \n \r \t \v \' \\. A path that does not resolve (the API server refuses such a CRD) gives undefined, and
 * the error stays on the rule's own node. Left out: list indexes (upstream allows none either).
 */
import type { FieldStep } from '../field-error';

type SchemaRecord = Record<string, unknown>;

const ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  "'": "'",
  '\\': '\\',
};

function isRecord(value: unknown): value is SchemaRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The steps of a rule's fieldPath below its schema node, or undefined when it does not resolve. */
export function parseRuleFieldPath(fieldPath: string, schema: SchemaRecord): FieldStep[] | undefined {
  const steps: FieldStep[] = [];
  let node: unknown = schema;
  let rest = fieldPath;
  while (rest !== '') {
    let name: string | undefined;
    const dotted = /^\.([^.[\]]+)/.exec(rest);
    const quoted = /^\[\s*'((?:[^'\\]|\\.)*)'\s*\]/.exec(rest);
    if (dotted !== null) {
      name = dotted[1];
      rest = rest.slice(dotted[0].length);
    } else if (quoted !== null) {
      name = unescape(quoted[1] ?? '');
      rest = rest.slice(quoted[0].length);
    }
    if (name === undefined || !isRecord(node)) {
      return undefined;
    }
    const properties = node['properties'];
    const additional = node['additionalProperties'];
    if (isRecord(properties)) {
      if (!isRecord(properties[name])) {
        return undefined;
      }
      steps.push({ kind: 'field', name });
      node = properties[name];
    } else if (isRecord(additional)) {
      steps.push({ kind: 'key', name });
      node = additional;
    } else {
      return undefined;
    }
  }
  return steps;
}

function unescape(text: string): string | undefined {
  let bad = false;
  const out = text.replace(/\\(.)/g, (_, directive: string) => {
    const replacement = ESCAPES[directive];
    if (replacement === undefined) {
      bad = true;
      return '';
    }
    return replacement;
  });
  return bad ? undefined : out;
}
