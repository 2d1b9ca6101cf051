/**
 * Parses the text of one document slice with the yaml package, keeping node ranges, and turns its syntax
 * problems into findings. Ranges stay relative to the slice so that a parse can be cached by the slice's text
 * and reused wherever the slice moves in the file.
 */
import { isAlias, isScalar, parseAllDocuments, visit } from 'yaml';
import type { Document, ParsedNode } from 'yaml';
import type { DiagnosticCode, Finding } from '../findings';
import { findExcessiveNesting, MAX_NESTING_DEPTH } from './nesting';

/** The most alias expansions allowed while converting a document to plain data (billion laughs guard). */
export const MAX_ALIAS_COUNT = 100;

/** One YAML document of a slice: its nodes, its plain value, and its syntax findings (all slice-relative). */
export interface YamlDocument {
  /** The parsed document; null when the slice could not be parsed at all (too deep). */
  readonly document: Document.Parsed<ParsedNode> | null;
  /** The plain value (toJS); undefined when it could not be computed. */
  readonly value: unknown;
  /** Syntax findings, slice-relative. */
  readonly findings: readonly Finding[];
  /** Offset of the document's first character in the slice. */
  readonly start: number;
  /** Offset just past the document's last character in the slice. */
  readonly end: number;
}

const YAML_ERROR_CODES: Record<string, DiagnosticCode> = {
  DUPLICATE_KEY: 'yaml-duplicate-key',
  TAB_AS_INDENT: 'yaml-tab-indent',
  RESOURCE_EXHAUSTION: 'yaml-too-deep',
};

/** Parses one slice of a YAML stream into its documents (usually exactly one). */
export function parseSlice(text: string): YamlDocument[] {
  const tooDeepAt = findExcessiveNesting(text);
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
            message: `This document nests more than ${MAX_NESTING_DEPTH} levels deep; it was not analysed.`,
            start: tooDeepAt,
            end: Math.min(text.length, tooDeepAt + 1),
          },
        ],
      },
    ];
  }
  const documents = parseAllDocuments(text, {
    prettyErrors: false,
    uniqueKeys: true,
    keepSourceTokens: false,
  });
  const list = Array.isArray(documents) ? documents : [];
  if (list.length === 0) {
    return [{ document: null, value: undefined, start: 0, end: text.length, findings: [] }];
  }
  return list.map((document) => {
    const findings: Finding[] = [];
    const seenCodes = new Set<string>();
    for (const error of document.errors) {
      const code = YAML_ERROR_CODES[error.code] ?? 'yaml-syntax';
      if (code === 'yaml-too-deep') {
        if (seenCodes.has(code)) {
          continue;
        }
        seenCodes.add(code);
      }
      const [start, end] = error.pos;
      const keyRange = code === 'yaml-duplicate-key' ? findKeyAt(document, start) : undefined;
      findings.push({
        code,
        message: describeYamlError(error.code, error.message),
        start: keyRange?.[0] ?? start,
        end: keyRange?.[1] ?? Math.max(end, start + 1),
      });
    }
    let value: unknown;
    try {
      value = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (error: unknown) {
      value = undefined;
      const alias = findFirstAlias(document);
      findings.push({
        code: 'yaml-alias-limit',
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
    case 'DUPLICATE_KEY':
      return 'Duplicate key: kubectl keeps only the last value and silently drops this one.';
    case 'TAB_AS_INDENT':
      return 'Tabs are not allowed as indentation in YAML; indent with spaces.';
    case 'RESOURCE_EXHAUSTION':
      return 'This document nests too deeply to be read.';
    default:
      return `YAML syntax error: ${withoutPosition}`;
  }
}

/** The range of the mapping key that starts at an offset (yaml marks only its first character). */
function findKeyAt(document: Document.Parsed<ParsedNode>, offset: number): [number, number] | undefined {
  let found: [number, number] | undefined;
  visit(document, {
    Pair(_key, pair) {
      const range = isScalar(pair.key) ? pair.key.range : undefined;
      if (range && range[0] === offset) {
        found = [range[0], range[1]];
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
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
