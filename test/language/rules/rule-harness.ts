/**
 * Runs rules on small YAML texts for the rule tests: parses the text with ranges, extracts the Kubernetes
 * objects, and reports each finding with the exact text its range covers.
 */
import type { Node } from 'yaml';
import type { AnalysisContext, ObjectRule } from '../../../server/src/language/analyzer';
import type { TextFinding } from '../../../server/src/language/findings';
import type { ManifestObject } from '../../../server/src/language/kubernetes/manifest-object';
import { extractObjects } from '../../../server/src/language/kubernetes/manifest-object';
import { SchemaStore } from '../../../server/src/language/schema/schema-store';
import { parseSlice } from '../../../server/src/language/yaml/parse-document';

/** A finding as the tests compare it: the code, the message, the covered text and the fix. */
export interface SeenFinding {
  readonly code: string;
  readonly message: string;
  /** The text the finding's range covers. */
  readonly at: string;
  /** The line (from 1) where the range starts, so that repeated words are told apart. */
  readonly line: number;
  readonly replacement?: string;
}

/** A context for rules: an empty schema store of the given version; rules read only its version. */
export function ruleContext(kubernetesVersion = '1.35'): AnalysisContext {
  return {
    key: `rules-test-${kubernetesVersion}`,
    store: new SchemaStore({ kubernetesVersion, kinds: {}, definitions: {} }),
    apiVersions: () => ({ status: 'served' }),
    rules: [],
    maxFileLength: 1_000_000,
  };
}

/** The Kubernetes objects of a YAML text (every document, List items included). */
export function objectsOf(text: string): ManifestObject[] {
  return parseSlice(text).flatMap((document) =>
    extractObjects(document.value, (document.document?.contents ?? undefined) as Node | undefined),
  );
}

/** Describes findings by the text they cover. */
export function describeFindings(text: string, findings: readonly TextFinding[]): SeenFinding[] {
  return findings.map((finding) => ({
    code: finding.code,
    message: finding.message,
    at: text.slice(finding.start, finding.end),
    line: text.slice(0, finding.start).split('\n').length,
    ...(finding.fix?.replacement === undefined ? {} : { replacement: finding.fix.replacement }),
  }));
}

/** Runs one rule on every object of a text. */
export function runRule(rule: ObjectRule, text: string, kubernetesVersion = '1.35'): SeenFinding[] {
  const context = ruleContext(kubernetesVersion);
  return describeFindings(
    text,
    objectsOf(text).flatMap((object) => rule(object, context)),
  );
}

/** Joins lines into a YAML text (keeps test inputs readable without template-literal indentation). */
export function yaml(...lines: string[]): string {
  return `${lines.join('\n')}\n`;
}
