/**
 * What a kustomization file says about the files it names: which are resources, which are patches, which are
 * transformer or generator configurations, and whether its transformers supply a workload's selector. Pure: the
 * file system is read in files/kustomize-roles.ts. Field names follow kustomize's Kustomization type
 * (https://github.com/kubernetes-sigs/kustomize/blob/master/api/types/kustomization.go); remote resources and
 * inline patches name no file and are left out.
 */
import { parse } from 'yaml';

/**
 * What kustomize makes of a file a kustomization names (or of the kustomization file itself); 'unlisted': a file
 * beside a kustomization that does not list it (a patch fragment of a commented-out entry), which no apply
 * applies (`kubectl apply -k` applies the render only).
 */
export type KustomizeRoleKind = 'resource' | 'patch' | 'transformer-config' | 'kustomization' | 'unlisted';

/** The role kustomize gives a file, as the nearest kustomizations say. */
export interface KustomizeRole {
  readonly kind: KustomizeRoleKind;
  /**
   * For a resource: the kustomization that lists it, or one including that one, sets `commonLabels` or `labels`
   * with `includeSelectors`, so a workload's selector is supplied when it is rendered.
   */
  readonly selectorSupplied: boolean;
}

/** The references of one kustomization, relative to its folder as written. */
export interface KustomizationReferences {
  /** Files and folders under `resources` and `bases`, and folders under `components`. */
  readonly resources: readonly string[];
  /** Files under `patches` (path:), `patchesStrategicMerge` and `patchesJson6902` (path:). */
  readonly patches: readonly string[];
  /** Files under `transformers`, `generators`, `validators`, `configurations` and `replacements` (path:). */
  readonly configurations: readonly string[];
  /** Other files it reads: `crds`, `openapi` (path:), generators' `files`, `envs` and `env`. */
  readonly inputs: readonly string[];
  /** Whether `commonLabels`, or `labels` with `includeSelectors: true`, add labels to selectors. */
  readonly suppliesSelector: boolean;
}

/** The file names kustomize looks for in a folder, in its order (konfig.RecognizedKustomizationFileNames). */
export const KUSTOMIZATION_FILE_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

/** Reads a kustomization's text; undefined when it is not a mapping (kustomize would refuse it). */
export function readKustomization(text: string): KustomizationReferences | undefined {
  let value: unknown;
  try {
    value = parse(text, { maxAliasCount: 100 }) as unknown;
  } catch {
    return undefined;
  }
  if (!isRecord(value)) {
    return undefined;
  }
  const labels = Array.isArray(value['labels']) ? (value['labels'] as unknown[]) : [];
  return {
    resources: [
      ...stringsOf(value['resources']),
      ...stringsOf(value['bases']),
      ...stringsOf(value['components']),
    ],
    patches: [
      // Older kustomizations list plain paths under `patches` too.
      ...stringsOf(value['patches']),
      ...pathsOf(value['patches']),
      ...stringsOf(value['patchesStrategicMerge']),
      ...pathsOf(value['patchesJson6902']),
    ],
    configurations: [
      ...stringsOf(value['transformers']),
      ...stringsOf(value['generators']),
      ...stringsOf(value['validators']),
      ...stringsOf(value['configurations']),
      ...pathsOf(value['replacements']),
    ],
    inputs: [
      ...stringsOf(value['crds']),
      ...(isRecord(value['openapi']) && typeof value['openapi']['path'] === 'string'
        ? [value['openapi']['path']]
        : []),
      ...generatorInputsOf(value['configMapGenerator']),
      ...generatorInputsOf(value['secretGenerator']),
    ],
    suppliesSelector:
      (isRecord(value['commonLabels']) && Object.keys(value['commonLabels']).length > 0) ||
      labels.some((entry) => isRecord(entry) && entry['includeSelectors'] === true),
  };
}

/** Plain strings of a list that name a file or folder (not an inline document, not a remote URL). */
function stringsOf(list: unknown): string[] {
  if (!Array.isArray(list)) {
    return [];
  }
  return list.filter((item): item is string => typeof item === 'string' && isLocalPath(item));
}

/** The files of a list of generators: `files` ("path" or "key=path"), `envs`, `env`. */
function generatorInputsOf(list: unknown): string[] {
  if (!Array.isArray(list)) {
    return [];
  }
  return list
    .filter(isRecord)
    .flatMap((generator) => [
      ...stringsOf(generator['files']).map((entry) => entry.slice(entry.indexOf('=') + 1)),
      ...stringsOf(generator['envs']),
      ...(typeof generator['env'] === 'string' ? [generator['env']] : []),
    ]);
}

/** The `path` of each entry of a list of patches or replacements. */
function pathsOf(list: unknown): string[] {
  if (!Array.isArray(list)) {
    return [];
  }
  return list.flatMap((item: unknown) =>
    isRecord(item) && typeof item['path'] === 'string' && isLocalPath(item['path']) ? [item['path']] : [],
  );
}

function isLocalPath(entry: string): boolean {
  return (
    entry.trim() !== '' &&
    !entry.includes('\n') &&
    !/^[a-z][a-z0-9+.-]*:\/\//i.test(entry) &&
    !entry.includes('?ref=')
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
