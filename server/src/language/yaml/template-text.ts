/**
 * Where a document's text is template text ({{ … }}) rather than data, found from the YAML tokens and not guessed
 * from the text: `{{` is only a template when it is the document's structure, or when a scalar's `{{ … }}` names
 * one of Helm's built-in objects or functions.
 *
 * - Structure: a `{{` that no scalar or comment holds. YAML reads an unquoted `{{ … }}` value, a `{{- if … }}`
 *   line or an `{{ include … | nindent 4 }}` line as the start of a flow mapping, so such a document is not
 *   the manifest it will become once rendered; analysing it would only report the template's own syntax.
 * - Data: `{{ … }}` inside a quoted, block or plain scalar is a string value the YAML parse accepts, and that
 *   kubectl sends as it is: a PrometheusRule's `description: Pod {{ $labels.pod }} …`, the `"legendFormat":
 *   "{{instance}}"` of a Grafana dashboard held in a ConfigMap. sigs.k8s.io/yaml reads them as strings (see
 *   staging/src/k8s.io/apimachinery/pkg/util/yaml/decoder.go, YAMLToJSONDecoder), so they are analysed.
 * - Unless a plain (unquoted) scalar's action names Helm's built-in objects (.Values, .Release, .Chart,
 *   .Capabilities, .Files, .Template) or functions only Helm has (include, tpl, toYaml, required, lookup,
 *   nindent): `image: foo:{{ .Values.tag }}` is valid YAML but an unrendered chart, not meant to be applied as it
 *   is (https://helm.sh/docs/chart_template_guide/builtin_objects/). Prometheus ($labels, $value, .Labels) and
 *   Alertmanager templates use none of these names.
 * - A quoted or block scalar is a string whatever it holds, even Helm's names, as long as the document is
 *   otherwise plain YAML: istio's `istio-sidecar-injector` ConfigMap holds Go templates naming `.Values` in a
 *   block string that istiod renders itself (manifests/charts/istio-control/istio-discovery/files/injection-
 *   template.yaml); kubectl sends it as it is. Only a document that is a template by the signals above (its
 *   structure, or Helm's names in a plain scalar) is template text.
 * Comments are neither. Not modelled: other template languages (Jinja's `{{ var }}` in a plain scalar is data
 * here, as kubectl would send it).
 */
import { Parser } from 'yaml';
import { appendAll } from '../../../../protocol/collections';

/** A template site: the `{{ … }}` text's range in the document's text. */
export interface TemplateSite {
  readonly start: number;
  readonly end: number;
  /** Why it is template text: the document's structure, or a scalar naming Helm's objects. */
  readonly reason: 'structure' | 'helm-value';
}

/** Scalar token types of the yaml package's CST: their text is a string value. */
const SCALAR_TYPES: ReadonlySet<string> = new Set([
  'scalar',
  'single-quoted-scalar',
  'double-quoted-scalar',
  'block-scalar',
]);

/**
 * Names of Helm's built-in objects, and functions only a Helm template calls (as a command of the action: after
 * a space, `(`, `|` or `{{-`, never as a field such as `$labels.required`).
 */
const HELM_ACTION_PATTERN =
  /(?:^|[^\w.])\$?\.(?:Values|Release|Chart|Capabilities|Files|Template)\b|(?:^|[\s(|-])(?:include|tpl|toYaml|required|lookup|nindent)\s/;

/** A span of text the YAML tokens read as data (a plain scalar, or a quoted or block string) or as nothing. */
interface Span {
  readonly start: number;
  readonly end: number;
  readonly type: 'comment' | 'plain' | 'string';
}

/** The first place where a document's text is template text; undefined when its `{{ … }}` (if any) is data. */
export function findTemplateSite(text: string): TemplateSite | undefined {
  let open = text.indexOf('{{');
  if (open === -1) {
    return undefined;
  }
  const spans = tokenSpans(text);
  let index = 0;
  while (open !== -1) {
    while (index < spans.length && (spans[index]?.end ?? 0) <= open) {
      index++;
    }
    const span = spans[index];
    const inside = span !== undefined && span.start <= open;
    const close = text.indexOf('}}', open + 2);
    const limit = inside ? span.end : text.length;
    const end = close === -1 || close >= limit ? Math.min(limit, lineEndOf(text, open)) : close + 2;
    if (!inside) {
      return { start: open, end, reason: 'structure' };
    }
    if (span.type === 'plain' && HELM_ACTION_PATTERN.test(text.slice(open + 2, end))) {
      return { start: open, end, reason: 'helm-value' };
    }
    open = text.indexOf('{{', Math.max(open + 2, end));
  }
  return undefined;
}

/** The scalars' and comments' spans of the text, sorted by start, from the yaml package's CST. */
function tokenSpans(text: string): Span[] {
  const spans: Span[] = [];
  // An explicit stack, not recursion: a hostile document may nest deeper than the call stack allows.
  const stack: unknown[] = [];
  for (const token of new Parser().parse(text)) {
    stack.push(token);
  }
  while (stack.length > 0) {
    const item = stack.pop();
    if (Array.isArray(item)) {
      appendAll(stack, item as unknown[]);
      continue;
    }
    if (typeof item !== 'object' || item === null) {
      continue;
    }
    const record = item as Record<string, unknown>;
    const { type, offset, source } = record;
    if (typeof type === 'string' && typeof offset === 'number' && typeof source === 'string') {
      if (SCALAR_TYPES.has(type) || type === 'comment') {
        const kind = type === 'comment' ? 'comment' : type === 'scalar' ? 'plain' : 'string';
        spans.push({ start: offset, end: offset + source.length, type: kind });
      }
    }
    for (const [key, value] of Object.entries(record)) {
      if (key !== 'source' && typeof value === 'object' && value !== null) {
        stack.push(value);
      }
    }
  }
  return spans.sort((a, b) => a.start - b.start);
}

function lineEndOf(text: string, from: number): number {
  const newline = text.indexOf('\n', from);
  return newline === -1 ? text.length : newline;
}
