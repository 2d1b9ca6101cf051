/**
 * Deprecations the OpenAPI documents state in the description of a kind, which is where the API types' Go doc
 * comments end up: "Deprecated: This API is deprecated in v1.33+. Use discoveryv1.EndpointSlice." (v1 Endpoints),
 * "Deprecated in 1.7, please use the bindings subresource of pods instead." (v1 Binding up to 1.31).
 */
import { apiVersionOf, kindKey, splitKindKey } from './kinds';

/** A deprecation of one kind in one version, as written to api-versions.json. */
export interface DeprecationEntry {
  /** The deprecation text, from "Deprecated" to the end of the description. */
  message: string;
  /** "<apiVersion>/<Kind>" the text names as the way forward, when it names a kind served in that version. */
  replacement?: string;
}

/** "Deprecated" opening the description, a paragraph or a sentence; what follows is the deprecation notice. */
const DEPRECATED_NOTICE = /(?:^|\n\s*\n|[.!?]\s+)(Deprecated\b[\s\S]*)$/;

/**
 * How Go doc comments name a type of another API package: "<group><version>.<Type>", the package alias being the
 * group's first label and the version ("discoveryv1.EndpointSlice", "corev1.Pod").
 */
const GO_TYPE_REFERENCE = /\b[Uu]se ([a-z]+?)(v\d+(?:alpha\d+|beta\d+)?)\.([A-Z][A-Za-z0-9]*)/;

/** The deprecation notice in a kind's description, or undefined when it has none. */
export function deprecationNotice(description: string): string | undefined {
  const match = DEPRECATED_NOTICE.exec(description);
  return match?.[1]?.trim();
}

/**
 * The kind a deprecation notice tells users to use instead, as a key of `servedKinds` (the kinds of the same
 * Kubernetes version), or undefined when the notice names none or names one that version does not serve.
 */
export function suggestedReplacement(notice: string, servedKinds: readonly string[]): string | undefined {
  const match = GO_TYPE_REFERENCE.exec(notice);
  if (match === null) {
    return undefined;
  }
  const [, alias = '', version = '', kind = ''] = match;
  const candidates = servedKinds.filter((key) => {
    const { apiVersion, kind: servedKind } = splitKindKey(key);
    const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
    const groupMatches = alias === 'core' ? group === '' : group === alias || group.startsWith(`${alias}.`);
    return servedKind === kind && groupMatches && kindKey(apiVersionOf(group, version), kind) === key;
  });
  return candidates.sort()[0];
}
