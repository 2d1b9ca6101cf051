/**
 * Parses the text of one document slice with the yaml package, keeping node ranges, and turns its syntax
 * problems into findings. Ranges stay relative to the slice so that a parse can be cached by the slice's text
 * and reused wherever the slice moves in the file.
 */
import { isAlias, visit } from 'yaml';
import type { Document, ParsedNode } from 'yaml';
import type { DiagnosticCode, TextFinding } from '../findings';
import {
  describeDocumentTooLarge,
  describeTooManyAnchors,
  MAX_ALIAS_COUNT,
  MAX_ANCHORS_AND_ALIASES,
  MAX_DOCUMENT_NODES,
  MAX_NESTING_DEPTH,
} from '../limits';
import { findExcessiveNesting } from './nesting';
import { takeNodeCensus } from './node-checks';
import { estimateNodeCount } from './node-estimate';
import { readPlainValue } from './fast/plain-value';
import { parseYaml } from './parse-yaml';
import { severityOf } from '../findings';

export { MAX_ALIAS_COUNT } from '../limits';

/** One YAML document of a slice: its nodes, its plain value, and its syntax findings (all slice-relative). */
export interface YamlDocument {
  /** The parsed document; null when the slice could not be parsed at all (too deep). */
  readonly document: Document.Parsed<ParsedNode> | null;
  /** The plain value (toJS); undefined when it could not be computed. */
  readonly value: unknown;
  /** Syntax findings, slice-relative. */
  readonly findings: readonly TextFinding[];
  /** Offset of the document's first character in the slice. */
  readonly start: number;
  /** Offset just past the document's last character in the slice. */
  readonly end: number;
}

/**
 * The repeated key is the one reported, and the one kept: `kubectl apply -f` reads YAML with sigs.k8s.io/yaml's
 * non-strict Unmarshal (apimachinery's YAMLToJSONDecoder, used by cli-runtime's StreamVisitor), whose go-yaml v2
 * map keeps the last value without an error, so the JSON sent to the API server has no duplicate left for strict
 * field validation to refuse. kustomize (kyaml, go-yaml v3) refuses the file instead, so `kubectl apply -k` fails:
 * https://github.com/kubernetes-sigs/kustomize/blob/master/api/krusty/duplicatekeys_test.go
 */
function describeDuplicateKey(key: string): string {
  const quoted = JSON.stringify(key);
  return (
    `Duplicate key ${quoted}: this mapping already sets it. kubectl apply -f keeps this later value and silently ` +
    `drops the earlier one; kustomize refuses the file (kubectl apply -k: mapping key ${quoted} already defined).`
  );
}

const YAML_ERROR_CODES: Record<string, DiagnosticCode> = {
  TAB_AS_INDENT: 'yaml-tab-indent',
  RESOURCE_EXHAUSTION: 'yaml-too-deep',
};

/** What a caller already measured of a slice, so that parseSlice does not scan the text again. */
export interface SliceMeasures {
  /** estimateNodeCount(text). */
  readonly estimatedNodes: number;
  /** findExcessiveNesting(text), when the caller ran it; absent when it did not. */
  readonly nesting?: { readonly tooDeepAt: number | undefined };
}

/**
 * How the analyzer parses YAML (the fast path for block YAML, the yaml package for the rest). Duplicate keys are
 * found by takeNodeCensus in linear time, the package's own check being quadratic; logLevel 'error': the
 * package's warnings (a collection used as a key) went to stderr, which the language server forwards to the
 * editor as error messages, and what matters is reported as findings.
 */
export const ANALYZER_PARSE_OPTIONS = {
  prettyErrors: false,
  uniqueKeys: false,
  keepSourceTokens: false,
  logLevel: 'error',
} as const;

/** Parses one slice of a YAML stream into its documents (usually exactly one). */
export function parseSlice(text: string, measures?: SliceMeasures): YamlDocument[] {
  const tooDeepAt = measures?.nesting === undefined ? findExcessiveNesting(text) : measures.nesting.tooDeepAt;
  if (tooDeepAt !== undefined) {
    return [
      {
        document: null,
        value: undefined,
        start: 0,
        end: text.length,
        findings: [
          {
            code: 'yaml-too-deep',
            severity: severityOf('yaml-too-deep'),
            message: `This document nests more than ${MAX_NESTING_DEPTH} levels deep; it was not analysed.`,
            start: tooDeepAt,
            end: Math.min(text.length, tooDeepAt + 1),
          },
        ],
      },
    ];
  }
  const estimatedNodes = measures?.estimatedNodes ?? estimateNodeCount(text);
  if (estimatedNodes > MAX_DOCUMENT_NODES) {
    return [
      {
        document: null,
        value: undefined,
        start: 0,
        end: text.length,
        findings: [
          {
            code: 'document-too-large',
            severity: severityOf('document-too-large'),
            message: describeDocumentTooLarge(estimatedNodes),
            start: 0,
            end: Math.max(1, Math.min(text.length, firstLineEnd(text))),
          },
        ],
      },
    ];
  }
  const { documents: list, isFast } = parseYaml(text, ANALYZER_PARSE_OPTIONS);
  if (list.length === 0) {
    return [{ document: null, value: undefined, start: 0, end: text.length, findings: [] }];
  }
  return list.map((document) => {
    const findings: TextFinding[] = [];
    const seenCodes = new Set<string>();
    for (const error of document.errors) {
      const code = YAML_ERROR_CODES[error.code] ?? 'yaml-syntax';
      if (code === 'yaml-too-deep') {
        if (seenCodes.has(code)) {
          continue;
        }
        seenCodes.add(code);
      }
      findings.push({
        code,
        severity: severityOf(code),
        message: describeYamlError(error.code, error.message),
        ...visibleRange(error.pos[0], error.pos[1], text.length),
      });
    }
    // A fast-parsed document has no aliases: its value and census are read straight off its nodes in one walk.
    const plain = isFast ? readPlainValue(document) : undefined;
    const census = plain?.census ?? takeNodeCensus(document);
    for (const { start, end, key } of census.duplicateKeys) {
      // An empty (null) key has an empty range: the repeat shows on the ":" after it.
      findings.push({
        code: 'yaml-duplicate-key',
        severity: severityOf('yaml-duplicate-key'),
        message: describeDuplicateKey(key),
        ...visibleRange(start, end, text.length),
      });
    }
    findings.sort((a, b) => a.start - b.start);
    if (census.anchorsAndAliases > MAX_ANCHORS_AND_ALIASES) {
      const alias = findFirstAlias(document);
      findings.push({
        code: 'yaml-alias-limit',
        severity: severityOf('yaml-alias-limit'),
        message: describeTooManyAnchors(census.anchorsAndAliases),
        start: alias?.[0] ?? document.range[0],
        end: alias?.[1] ?? Math.max(document.range[1], document.range[0] + 1),
      });
      return { document, value: undefined, findings, start: document.range[0], end: document.range[2] };
    }
    let value: unknown;
    try {
      value = plain === undefined ? document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) : plain.value;
    } catch (error: unknown) {
      value = undefined;
      const alias = findFirstAlias(document);
      findings.push({
        code: 'yaml-alias-limit',
        severity: severityOf('yaml-alias-limit'),
        message:
          error instanceof Error && /alias/i.test(error.message)
            ? `Aliases in this document expand more than ${MAX_ALIAS_COUNT} times (a "billion laughs" pattern); it was not analysed.`
            : `This document could not be read: ${error instanceof Error ? error.message : String(error)}`,
        start: alias?.[0] ?? document.range[0],
        end: alias?.[1] ?? document.range[1],
      });
    }
    return { document, value, findings, start: document.range[0], end: document.range[2] };
  });
}

function describeYamlError(code: string, message: string): string {
  const firstLine = message.split('\n')[0] ?? message;
  const withoutPosition = firstLine.replace(/ at line \d+, column \d+:?$/, '');
  switch (code) {
    case 'TAB_AS_INDENT':
      return 'Tabs are not allowed as indentation in YAML; indent with spaces.';
    case 'RESOURCE_EXHAUSTION':
      return 'This document nests too deeply to be read.';
    default:
      return `YAML syntax error: ${withoutPosition}`;
  }
}

function findFirstAlias(document: Document.Parsed<ParsedNode>): [number, number] | undefined {
  let found: [number, number] | undefined;
  visit(document, {
    Alias(_key, node) {
      if (isAlias(node) && node.range) {
        found = [node.range[0], node.range[1]];
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}

function firstLineEnd(text: string): number {
  const newline = text.indexOf('\n');
  return newline === -1 ? text.length : newline;
}

/**
 * A range of one character at least, so that the finding shows, but never past the end of the text: a
 * finding at the very end (a missing closing quote, an empty key) is shown on the last character.
 */
function visibleRange(start: number, end: number, length: number): { start: number; end: number } {
  const visibleEnd = Math.min(length, Math.max(end, start + 1));
  return { start: Math.max(0, Math.min(start, visibleEnd - 1)), end: visibleEnd };
}
