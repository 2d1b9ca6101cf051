/**
 * The YAML lines of a CustomResourceDefinition as tests write them: one namespaced kind whose first version (v1,
 * served and stored unless told otherwise) has the given openAPIV3Schema lines. The lines are the block form users
 * write, so a row's expected line numbers count them: the schema's first line is line 14 of the CRD.
 */

/** What the CRD defines; `group` defaults to example.com and `plural` to the lower-cased kind + "s". */
export interface CrdNames {
  readonly kind: string;
  readonly group?: string;
  readonly plural?: string;
}

/**
 * The CRD's lines: its header, then `schema` (written at the openAPIV3Schema's indent, 10 spaces, by the caller's
 * own indentation relative to it), then `moreVersions` (list items under versions, at 4 spaces).
 */
export function crdLines(
  names: CrdNames,
  schema: readonly string[],
  moreVersions: readonly string[] = [],
): string[] {
  const group = names.group ?? 'example.com';
  const plural = names.plural ?? `${names.kind.toLowerCase()}s`;
  return [
    'apiVersion: apiextensions.k8s.io/v1',
    'kind: CustomResourceDefinition',
    `metadata: { name: ${plural}.${group} }`,
    'spec:',
    `  group: ${group}`,
    '  scope: Namespaced',
    `  names: { kind: ${names.kind}, plural: ${plural} }`,
    '  versions:',
    '    - name: v1',
    '      served: true',
    '      storage: true',
    '      schema:',
    '        openAPIV3Schema:',
    ...schema.map((line) => `          ${line}`),
    ...moreVersions.map((line) => `    ${line}`),
  ];
}
