/**
 * Where a problem of a CustomResourceDefinition itself is, twice: as the API server prints the path (after the
 * v1 object is converted to the internal version, so a schema shared by every version is
 * `spec.validation.openAPIV3Schema…`, apiextensions/v1/conversion.go) and as the path into the YAML written.
 * The checks of crd-definition-checks.ts and crd-schema-checks.ts build their issues with these helpers.
 */
import type { InstancePath } from '../yaml/node-at-path';
import type { FieldErrorType, FieldStep } from './field-error';
import { formatFieldError } from './field-error';

/**
 * A place in a CRD: the steps it adds to its parent's paths, as the API server prints them and in the YAML. Sites
 * link to their parent so that walking a large schema copies no path; a path is built only for an issue.
 */
export interface CrdSite {
  readonly parent: CrdSite | undefined;
  readonly printed: readonly FieldStep[];
  readonly yaml: InstancePath;
}

/** A problem the API server reports when the CRD is created. */
export interface CrdIssue {
  /** The YAML path of the value at fault (a missing value is placed on its parent's key). */
  readonly at: InstancePath;
  /** Whether to mark the key rather than the value (a forbidden keyword). */
  readonly onKey: boolean;
  /** The field.Error text. */
  readonly message: string;
}

/** The site of a top-level path that the API server prints as it is written (`spec.group`). */
export function siteOf(...names: string[]): CrdSite {
  return { parent: undefined, printed: names.map((name) => ({ kind: 'field', name })), yaml: names };
}

/** A site printed as one path and found in the YAML at another (a schema moved to spec.validation). */
export function movedSite(printed: CrdSite, yaml: CrdSite): CrdSite {
  return { parent: undefined, printed: printedPath(printed), yaml: yamlPath(yaml) };
}

/** A field below a site: `.name` in both paths. */
export function fieldOf(site: CrdSite, name: string): CrdSite {
  return { parent: site, printed: [{ kind: 'field', name }], yaml: [name] };
}

/** An entry of a map below a site: `.group[key]` as printed (field.Path.Key), `group.key` in the YAML. */
export function entryOf(site: CrdSite, group: string, key: string): CrdSite {
  return {
    parent: site,
    printed: [
      { kind: 'field', name: group },
      { kind: 'key', name: key },
    ],
    yaml: [group, key],
  };
}

/** An item of a list below a site: `.list[index]` in both paths. */
export function itemOf(site: CrdSite, list: string, index: number): CrdSite {
  return {
    parent: site,
    printed: [
      { kind: 'field', name: list },
      { kind: 'index', index },
    ],
    yaml: [list, index],
  };
}

/** The whole path of a site as the API server prints it. */
export function printedPath(site: CrdSite): FieldStep[] {
  return site.parent === undefined ? [...site.printed] : [...printedPath(site.parent), ...site.printed];
}

/** The whole YAML path of a site. */
export function yamlPath(site: CrdSite): (string | number)[] {
  return site.parent === undefined ? [...site.yaml] : [...yamlPath(site.parent), ...site.yaml];
}

/** A field.Error at a site: Invalid, Unsupported and Duplicate print the value; Required and Forbidden do not. */
export function issueAt(site: CrdSite, type: FieldErrorType, value: unknown, detail: string): CrdIssue {
  return {
    at: yamlPath(site),
    onKey: type === 'Forbidden',
    message: formatFieldError(printedPath(site), type, value, detail),
  };
}

/** field.NotSupported's detail: `supported values: "a", "b"`. */
export function supportedValues(values: readonly string[]): string {
  return `supported values: ${values.map((value) => JSON.stringify(value)).join(', ')}`;
}

/** A string value, or "" for anything else (Go's zero value for a missing string field). */
export function stringOrEmpty(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
