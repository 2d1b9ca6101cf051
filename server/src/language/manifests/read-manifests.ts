/**
 * The one manifest reader: from the analyses of the files `kubectl apply -f` would read (files/manifest-files.ts)
 * to the objects the engine is given, for `foresight validate`, `foresight simulate`, the language server's
 * predictions and the timeline panel alike. Per document, as kubectl reads them:
 *
 * - a document with an error (syntax, schema) is left out: the API server refuses it, so it never runs; one whose
 *   kind is not served (a removed apiVersion) goes on to the engine, whose admission refuses it in kubectl's words; documents that are not Kubernetes objects or are template text were already set aside, with one
 *   note per file, by the analyzer;
 * - `kind: List` and typed lists give their items;
 * - an object with `metadata.generateName` and no name is refused as kubectl apply refuses it;
 * - with a namespace (`kubectl apply -n NS`), namespaced objects without one are put in NS and one naming another
 *   is refused in kubectl's words (apply-namespace.ts); a GitOps unit's objects get its controller's namespace
 *   instead (apply-namespace.ts, UnitNamespace);
 * - the same object (API group, kind, namespace, name) defined twice in one apply unit is one object: sequential
 *   `kubectl apply` leaves the later definition, so the later wins; one `duplicate-object` warning per pair of
 *   files names the later file (and how many objects it redefines). Two units defining it are no duplicate
 *   (keep-last-definitions.ts);
 * - a unit whose texts do not hold its objects in the order it applies them (a kustomization's render, read file by
 *   file; a GitOps unit, which its controller sorts) is put in that order (apply-order.ts).
 *
 * Pure: the files come in analysed, with ids (URIs or display paths) and an optional way to name a place.
 */
import type { SourcedObject } from '../../engine/model/load/cluster-load';
import type { ObjectSource } from '../../engine/model/source';
import type { AnalysisOutline } from './analysis-outline';
import type { DiagnosticCode } from '../findings';
import { severityOf } from '../findings';
import { apiGroupOf, isClusterScoped } from '../../engine/model/cluster-scoped-kinds';
import type { ManifestObject } from '../kubernetes/manifest-object';
import { isListKind } from '../kubernetes/manifest-object';
import type { Finding } from '../../../../protocol/finding';
import type { UnitNamespace } from './apply-namespace';
import { customKindScopesOf, enforceNamespace, placeInUnitNamespace } from './apply-namespace';
import { inApplyOrder } from './apply-order';
import { keepLastDefinitions } from './keep-last-definitions';
import { onlyGenerateNameOf, withGeneratedName } from './generated-name';
import { ARGO_HOOK_ANNOTATION, argoHookLeftOut } from './argo-hooks';

/** One file to read: its id (URI or path) and its analysis (an outline is enough: the reader needs no nodes). */
export interface ManifestFile {
  readonly id: string;
  /**
   * The apply unit the text belongs to (a kustomization's render, a plain folder, a file, standard input): units
   * are applies of their own (two overlays of one base are alternatives), so an object that two units define is
   * not a duplicate of the apply.
   */
  readonly applyUnit?: string;
  /**
   * Each document's place in its unit's apply, when the unit's objects come in other texts than the order they are
   * applied in: a kustomization's render is read as one text per source file, but `kubectl apply -k` applies
   * kustomize's output in its order (by kind first: Namespaces, ServiceAccounts, Services before Deployments). The
   * unit's documents that have a place are applied in that order, in the slots they fill.
   */
  readonly applyOrder?: readonly number[] | undefined;
  /** The namespace a GitOps unit's controller gives the objects (it replaces `-n` for them). */
  readonly unitNamespace?: UnitNamespace;
  /**
   * The GitOps controller that applies the file (files/gitops/). Argo CD creates an object that has only a
   * generateName (its hooks' usual form: controller/state.go DeduplicateTargetObjects keys it by generateName),
   * where kubectl apply refuses it.
   */
  readonly appliedBy?: 'Argo CD' | 'Flux';
  readonly analysis: AnalysisOutline;
}

/** What the reader gives: the objects to apply, in order, and its findings. */
interface ReadResult {
  readonly objects: readonly SourcedObject[];
  readonly findings: readonly Finding[];
}

/** How to read. */
interface ReadOptions {
  /**
   * Keep documents with errors and every definition (a cluster file: what runs is what it says, and its
   * problems are the engine's to report).
   */
  readonly keepAll?: boolean;
  /** How a finding names a place of another file ("web/deploy.yaml:12"); the file id and document by default. */
  readonly describePlace?: (fileId: string, documentIndex: number, object: ManifestObject) => string;
  /** The namespace given on the command line (`kubectl apply -n`), enforced on every namespaced object. */
  readonly namespace?: string;
}

interface Entry {
  readonly sourced: SourcedObject;
  readonly object: ManifestObject;
  readonly key: string | undefined;
  readonly unit: string | undefined;
  /** Its document's place in the unit's apply (ManifestFile.applyOrder). */
  readonly order: number | undefined;
  readonly appliedBy: 'Argo CD' | 'Flux' | undefined;
}

/** Reads the files' objects in order, as sequential `kubectl apply` leaves them. */
export function readManifests(files: readonly ManifestFile[], options: ReadOptions = {}): ReadResult {
  const findings: Finding[] = [];
  const readEntries: Entry[] = [];
  const describe =
    options.describePlace ??
    ((fileId: string, documentIndex: number): string => `${fileId} (document ${documentIndex + 1})`);
  const customScopes =
    options.namespace === undefined && files.every((file) => file.unitNamespace === undefined)
      ? new Map()
      : customKindScopesOf(
          files.flatMap((file) => file.analysis.documents.flatMap((document) => document.objects)),
        );
  for (const file of files) {
    // A kustomize patch or transformer configuration is merged into other objects, never applied as it is.
    if (options.keepAll !== true && file.analysis.kustomizeFragment === true) {
      continue;
    }
    for (const document of file.analysis.documents) {
      if (options.keepAll !== true && document.findings.some(isRefusedBeforeAdmission)) {
        continue;
      }
      for (const read of document.objects) {
        if (read.path.length === 0 && isListKind(read.kind) && Array.isArray(read.value['items'])) {
          continue; // the list itself; its items follow as objects of their own
        }
        const source: ObjectSource = { file: file.id, documentIndex: document.index, path: [...read.path] };
        const leftOut =
          options.keepAll !== true && file.appliedBy === 'Argo CD' ? argoHookLeftOut(read) : undefined;
        if (leftOut !== undefined) {
          findings.push({
            code: 'gitops-hook-not-applied',
            severity: 'information',
            object: source,
            path: ['metadata', 'annotations', ARGO_HOOK_ANNOTATION],
            message: leftOut,
          });
          continue;
        }
        if (
          options.keepAll !== true &&
          file.appliedBy !== 'Argo CD' &&
          refusedGenerateName(read, source, findings)
        ) {
          continue;
        }
        const namespaced =
          file.unitNamespace !== undefined
            ? ({ ok: true, object: placeInUnitNamespace(read, file.unitNamespace, customScopes) } as const)
            : options.namespace === undefined
              ? ({ ok: true, object: read } as const)
              : enforceNamespace(read, options.namespace, customScopes);
        if (!namespaced.ok) {
          findings.push({
            code: 'namespace-mismatch',
            severity: 'error',
            object: source,
            path: ['metadata', 'namespace'],
            message: namespaced.message,
          });
          continue;
        }
        // An object Argo CD creates from a generateName is named by the API server (generated-name.ts).
        const object =
          file.appliedBy === 'Argo CD' ? withGeneratedName(namespaced.object, source) : namespaced.object;
        readEntries.push({
          sourced: { object: object.value, source },
          object,
          key: identityOf(object),
          unit: file.applyUnit,
          order: file.applyOrder?.[document.index],
          appliedBy: file.appliedBy,
        });
      }
    }
  }
  const entries = withCreatedNamespaces(files, inApplyOrder(readEntries));
  if (options.keepAll === true) {
    return { objects: entries.map((entry) => entry.sourced), findings };
  }
  return { objects: keepLastDefinitions(entries, describe, findings), findings };
}

/**
 * The namespaces GitOps controllers create before their sync (Argo CD's CreateNamespace=true: gitops-engine applies
 * the destination namespace first, with the managed labels and annotations), as Namespace objects applied before
 * the rest, unless the manifests define them. A finding on one is placed on its unit's first object.
 */
function withCreatedNamespaces(files: readonly ManifestFile[], entries: readonly Entry[]): Entry[] {
  const defined = new Set(
    entries
      .filter((entry) => entry.object.kind === 'Namespace' && apiGroupOf(entry.object.apiVersion) === '')
      .map((entry) => entry.object.name),
  );
  const created: Entry[] = [];
  for (const file of files) {
    const creation = file.unitNamespace?.creates;
    const first =
      creation === undefined || defined.has(creation.name)
        ? undefined
        : entries.find((entry) => entry.sourced.source.file === file.id);
    if (creation === undefined || first === undefined) {
      continue;
    }
    defined.add(creation.name);
    const metadata = {
      name: creation.name,
      ...(Object.keys(creation.labels).length === 0 ? {} : { labels: { ...creation.labels } }),
      ...(Object.keys(creation.annotations).length === 0 ? {} : { annotations: { ...creation.annotations } }),
    };
    const value = { apiVersion: 'v1', kind: 'Namespace', metadata };
    const object: ManifestObject = {
      apiVersion: 'v1',
      kind: 'Namespace',
      name: creation.name,
      namespace: undefined,
      value,
      node: undefined,
      path: first.object.path,
    };
    created.push({
      sourced: { object: value, source: first.sourced.source },
      object,
      key: identityOf(object),
      unit: first.unit,
      order: undefined,
      appliedBy: undefined,
    });
  }
  return created.length === 0 ? [...entries] : [...created, ...entries];
}

/** Kinds not served reach the engine, whose admission refuses them in kubectl's words (rejected[]). */
const NOT_SERVED_CODES: ReadonlySet<string> = new Set(['removed-api-version', 'unknown-kind']);

/** An error that keeps a document from the cluster here: any but a kind not served (admission reports those). */
export function isRefusedBeforeAdmission(finding: { readonly code: DiagnosticCode }): boolean {
  return severityOf(finding.code) === 'error' && !NOT_SERVED_CODES.has(finding.code);
}

/**
 * kubectl apply needs a name to find the live object; a generateName alone is refused before anything is sent
 * (staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go, TestDontAllowApplyWithPodGeneratedName).
 */
function refusedGenerateName(object: ManifestObject, source: ObjectSource, findings: Finding[]): boolean {
  const generateName = onlyGenerateNameOf(object);
  if (generateName === undefined) {
    return false;
  }
  findings.push({
    code: 'generate-name-with-apply',
    severity: 'error',
    object: source,
    path: ['metadata', 'generateName'],
    message: `error: from ${generateName}: cannot use generate name with apply (kubectl apply needs metadata.name; kubectl create takes generateName)`,
  });
  return true;
}

/** The identity kubectl apply finds the live object by: API group, kind, namespace, name. */
function identityOf(object: ManifestObject): string | undefined {
  if (object.name === undefined) {
    return undefined;
  }
  const namespace = isClusterScoped(object.apiVersion, object.kind) ? '' : (object.namespace ?? 'default');
  return `${apiGroupOf(object.apiVersion)}|${object.kind}|${namespace}|${object.name}`;
}
