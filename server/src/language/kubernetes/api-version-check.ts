/**
 * Whether an object's apiVersion and kind are served by the selected Kubernetes version: removed apiVersions
 * (naming the version that removed them and the replacement), deprecated ones, unknown built-in kinds, and kinds
 * of other groups (custom resources).
 */
import type { CustomKindValidator } from '../analyzer';
import type { TextFinding } from '../findings';
import { closestMatch } from '../schema/closest-match';
import type { SchemaStore } from '../schema/schema-store';
import { rangeForValue } from '../yaml/node-at-path';
import { SCENARIO_API_VERSION } from '../../engine/scenario/scenario-spec';
import { conversionFix } from './api-version-conversion';
import type { ManifestObject } from './manifest-object';
import { severityOf } from '../findings';

/** What the API history says about an apiVersion and kind in the selected version. */
export type ApiVersionVerdict =
  | { status: 'served' }
  | { status: 'deprecated'; replacement?: string; note?: string }
  | { status: 'removed'; removedIn: string; replacement?: string; isMechanical: boolean }
  | { status: 'notYetServed'; introducedIn: string }
  | { status: 'unknown' };

/** Answers for an apiVersion and kind, in the selected version. */
export type ApiVersionCheck = (apiVersion: string, kind: string) => ApiVersionVerdict;

/** The findings about an object's apiVersion and kind; `stop` when the object cannot be validated further. */
interface ApiVersionFindings {
  readonly findings: TextFinding[];
  readonly stop: boolean;
}

/** Checks the apiVersion and kind of an object (`text`: its document's text, for fixes that add fields). */
export function checkApiVersion(
  object: ManifestObject,
  store: SchemaStore,
  check: ApiVersionCheck,
  customKinds: CustomKindValidator | undefined,
  text?: string,
): ApiVersionFindings {
  const apiVersionRange = rangeForValue(object.node, ['apiVersion']);
  const kindRange = rangeForValue(object.node, ['kind']);
  const version = store.kubernetesVersion;
  if (object.kind === 'List' && object.apiVersion === 'v1') {
    return { findings: [], stop: true };
  }
  const verdict = check(object.apiVersion, object.kind);
  if (store.definitionOf(object.apiVersion, object.kind) !== undefined) {
    if (verdict.status === 'deprecated' && apiVersionRange !== undefined) {
      const finding: TextFinding = {
        code: 'deprecated-api-version',
        severity: severityOf('deprecated-api-version'),
        message:
          `${object.apiVersion} ${object.kind} is deprecated in Kubernetes ${version}` +
          (verdict.replacement === undefined ? '' : `; use ${verdict.replacement}`) +
          (verdict.note === undefined ? '.' : ` (${verdict.note}).`),
        start: apiVersionRange[0],
        end: apiVersionRange[1],
      };
      return { findings: [finding], stop: false };
    }
    return { findings: [], stop: false };
  }
  if (verdict.status === 'removed' && apiVersionRange !== undefined) {
    const replacement = verdict.replacement;
    const finding: TextFinding = {
      code: 'removed-api-version',
      severity: severityOf('removed-api-version'),
      message:
        `${object.apiVersion} ${object.kind} was removed in Kubernetes ${verdict.removedIn}` +
        (replacement === undefined ? '' : `; use ${replacement}`) +
        (replacement !== undefined && !verdict.isMechanical
          ? ' (the move also changes fields; see the deprecation guide)'
          : '') +
        ` (selected version: ${version}).`,
      start: apiVersionRange[0],
      end: apiVersionRange[1],
    };
    // A move that changes fields is offered as kubectl convert would make it, when the text is at hand.
    const fix =
      replacement === undefined
        ? undefined
        : verdict.isMechanical
          ? { replacement, title: `Change apiVersion to ${replacement}` }
          : text === undefined
            ? undefined
            : conversionFix(object, text, replacement);
    return { findings: [fix === undefined ? finding : { ...finding, fix }], stop: true };
  }
  if (verdict.status === 'notYetServed' && apiVersionRange !== undefined) {
    return {
      findings: [
        {
          code: 'unknown-kind',
          severity: severityOf('unknown-kind'),
          message: `${object.apiVersion} ${object.kind} is served from Kubernetes ${verdict.introducedIn} on; the version checked is ${version} (the setting kubeForesight.kubernetesVersion or --kubernetes-version, else the captured cluster's).`,
          start: apiVersionRange[0],
          end: apiVersionRange[1],
        },
      ],
      stop: true,
    };
  }
  const custom = customKinds?.validate(object);
  if (custom !== undefined && custom !== 'unknown') {
    return { findings: custom, stop: true };
  }
  if (
    object.apiVersion === SCENARIO_API_VERSION &&
    (object.kind === 'Scenario' ||
      object.kind === 'NodeGroup' ||
      object.kind === 'Capture' ||
      object.kind === 'Profile')
  ) {
    // Kube Foresight's own documents in a cluster file (what-if steps, node groups, a capture's header, a
    // profile's marker): the engine checks them when it runs.
    return { findings: [], stop: true };
  }
  const group = object.apiVersion.includes('/') ? (object.apiVersion.split('/')[0] ?? '') : '';
  if (!store.hasGroup(group)) {
    const range = kindRange ?? apiVersionRange;
    const findings: TextFinding[] =
      range === undefined
        ? []
        : [
            {
              code: 'unknown-custom-kind',
              severity: severityOf('unknown-custom-kind'),
              message: `${object.apiVersion} ${object.kind} is not a built-in kind of Kubernetes ${version} and no CustomResourceDefinition in the analysed files defines it; it is not validated.`,
              start: range[0],
              end: range[1],
            },
          ];
    return { findings, stop: true };
  }
  const servedKinds = store.kindsOf(object.apiVersion);
  if (servedKinds.length > 0 && kindRange !== undefined) {
    const suggestion = closestMatch(object.kind, servedKinds);
    return {
      findings: [
        {
          code: 'unknown-kind',
          severity: severityOf('unknown-kind'),
          message:
            `Kind "${object.kind}" is not served by ${object.apiVersion} in Kubernetes ${version}` +
            (suggestion === undefined ? '.' : `; did you mean "${suggestion}"?`),
          start: kindRange[0],
          end: kindRange[1],
          ...(suggestion === undefined
            ? {}
            : { fix: { replacement: suggestion, title: `Change kind to ${suggestion}` } }),
        },
      ],
      stop: true,
    };
  }
  const range = apiVersionRange ?? kindRange;
  const served = servedApiVersionsOf(store, object.kind);
  return {
    findings:
      range === undefined
        ? []
        : [
            {
              code: 'unknown-kind',
              severity: severityOf('unknown-kind'),
              message:
                `apiVersion "${object.apiVersion}" with kind "${object.kind}" is not served by Kubernetes ${version}` +
                (served.length === 0 ? '.' : `; ${object.kind} is served as ${served.join(', ')}.`),
              start: range[0],
              end: range[1],
              ...(served.length === 1 && served[0] !== undefined
                ? { fix: { replacement: served[0], title: `Change apiVersion to ${served[0]}` } }
                : {}),
            },
          ],
    stop: true,
  };
}

function servedApiVersionsOf(store: SchemaStore, kind: string): string[] {
  return Object.keys(store.bundle.kinds)
    .filter((key) => key.endsWith(`/${kind}`))
    .map((key) => key.slice(0, -kind.length - 1));
}
