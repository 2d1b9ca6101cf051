/**
 * A run as SARIF 2.1.0 (OASIS Static Analysis Results Interchange Format), the format of GitHub code scanning's
 * upload-sarif: one rule per finding code that occurs, described by the code's doc comment (code-docs.ts) with
 * the code's severity as its default level, and one result per finding, located by the file's path relative to
 * the working directory and the 1-based region. A finding without a file (the cluster as a whole) or read from
 * standard input has no location. Levels follow the code's severity; whether the run fails is --fail-on's.
 * https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html
 */
import { pathToFileURL } from 'node:url';
import { isAbsolute } from 'node:path';
import type { CliRun, Finding, FindingSeverity } from '../../language/service';
import { isFindingCode } from '../../language/service';
import { helmTemplateOf, pathOf, regionOf, subjectOf } from './finding-places';
import { CODE_DOCS } from './code-docs';
import { FINDING_CODES } from '../../../../protocol/finding-codes';

/** The schema the log names (the OASIS standard, errata 01). */
const SARIF_SCHEMA =
  'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

/** SARIF's level of each severity (§3.27.10: "note" is its information level). */
const LEVELS = { error: 'error', warning: 'warning', information: 'note' } as const;

/** The log as JSON text. */
export function formatSarif(run: CliRun): string {
  const codes = [...new Set(run.findings.map((finding) => finding.code))].sort();
  const ruleIndex = new Map(codes.map((code, index) => [code, index]));
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'foresight',
            fullName: `Kube Foresight (foresight ${run.command})`,
            rules: codes.map(rule),
          },
        },
        columnKind: 'utf16CodeUnits',
        results: run.findings.map((finding) => result(finding, ruleIndex.get(finding.code) ?? 0)),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

/** A rule: the code, its documented meaning and its severity. */
function rule(code: string): object {
  const known = isFindingCode(code);
  const meaning = known ? CODE_DOCS[code] : code;
  const severity: FindingSeverity = known ? FINDING_CODES[code] : 'warning';
  return {
    id: code,
    shortDescription: { text: firstSentence(meaning) },
    fullDescription: { text: meaning },
    help: {
      text: `${meaning}\n\nFinding code ${code} of Kube Foresight (severity: ${severity}). The editor extension and the foresight CLI report it alike.`,
    },
    defaultConfiguration: { level: LEVELS[severity] },
  };
}

function result(finding: Finding, index: number): object {
  const path = pathOf(finding);
  const region = regionOf(finding);
  const subject = subjectOf(finding);
  const location =
    path !== undefined
      ? {
          physicalLocation: {
            artifactLocation: { uri: toUri(path) },
            ...(region === undefined ? {} : { region }),
          },
          ...(subject === undefined || subject.startsWith('document ')
            ? {}
            : { logicalLocations: [{ fullyQualifiedName: subject, kind: 'resource' }] }),
        }
      : undefined;
  const related = relatedLocations(finding);
  return {
    ruleId: finding.code,
    ruleIndex: index,
    level: LEVELS[finding.severity],
    message: { text: finding.message },
    ...(location === undefined ? {} : { locations: [location] }),
    ...(related.length === 0 ? {} : { relatedLocations: related }),
  };
}

/**
 * The places that explain a finding (§3.27.22): its related places, and the Helm chart template its document was
 * rendered from, as a location of its own (with the template's file when the chart is in the workspace, else
 * only a message naming it).
 */
function relatedLocations(finding: Finding): object[] {
  const template = helmTemplateOf(finding);
  // Related places in offsets (before placing) have no file of their own here.
  const places = (finding.related ?? []).flatMap((entry) =>
    entry.place === undefined
      ? []
      : [
          {
            message: { text: entry.message },
            physicalLocation: { artifactLocation: { uri: toUri(entry.place.file) } },
          },
        ],
  );
  const locations =
    template === undefined || places.length > 0
      ? places
      : [{ message: { text: `rendered by helm template from ${template}` } }];
  return locations.map((location, id) => ({ id, ...location }));
}

/** A displayed path as a URI reference: relative with forward slashes, each segment percent-encoded. */
function toUri(file: string): string {
  if (isAbsolute(file) || /^[A-Za-z]:[\\/]/.test(file)) {
    return pathToFileURL(file).href;
  }
  return file
    .split(/[\\/]/)
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}

/** The first sentence of a description (up to the first ". " before a capital), or all of it. */
function firstSentence(text: string): string {
  const match = /^(.+?\.)\s+(?=[A-Z])/.exec(text);
  return match?.[1] ?? text;
}
