/**
 * The JSON schemas of one Kubernetes version (schemas/kubernetes/<minor>.json), compiled with ajv on first use
 * per kind, and walked by path for hover and completion. Pure: the caller loads the bundle, and may hand over
 * the same validators compiled at build time (standalone-validators.ts), which are then used instead.
 */
import Ajv from 'ajv';
import type { CodeOptions, ErrorObject, FormatDefinition } from 'ajv';
import { isQuantityText } from './quantity-format';
import type { StandaloneValidators } from './standalone-validators';

/** A JSON schema node, as generated into schemas/kubernetes/. */
export interface JsonSchema {
  $ref?: string;
  description?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  required?: string[];
  enum?: unknown[];
  format?: string;
  [keyword: string]: unknown;
}

/** The generated schema bundle of one Kubernetes version. */
export interface KubernetesSchemaBundle {
  readonly kubernetesVersion: string;
  /** "<apiVersion>/<Kind>" → definition name. */
  readonly kinds: Record<string, string>;
  readonly definitions: Record<string, JsonSchema>;
}

/** The id the bundle's definitions are registered under; a kind's schema is a $ref into it. */
export const BUNDLE_ID = 'https://kube-foresight.invalid/kubernetes.json';
const MAX_REF_HOPS = 64;

/** The ajv format "quantity" (quantity-format.ts), as the store and the build-time validators use it. */
export const QUANTITY_FORMAT: FormatDefinition<string> = { type: 'string', validate: isQuantityText };

/** A kind's validator: ajv's ValidateFunction, compiled here or at build time. */
export interface SchemaValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/**
 * The ajv instance of a bundle, with the options every validator of the store is compiled with (the
 * build-time ones too: `code` adds only what standalone code needs).
 */
export function createBundleAjv(bundle: KubernetesSchemaBundle, code: CodeOptions = {}): Ajv {
  // code.optimize off: ajv's extra passes over the generated code cost ~40% of compiling a kind (about 140 ms
  // of the first Deployment, Service and ConfigMap, i.e. of a cold start) and change neither results nor
  // validation speed (README, "Benchmarks"; test/language/schema/unoptimized-validators.test.ts).
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    verbose: true,
    validateSchema: false,
    code: { ...code, optimize: false },
  });
  ajv.addFormat('quantity', QUANTITY_FORMAT);
  ajv.addSchema({ $id: BUNDLE_ID, definitions: bundle.definitions });
  return ajv;
}

/** Compiled validators and schema lookups for one Kubernetes version. */
export class SchemaStore {
  private ajv: Ajv | null = null;
  private readonly validators = new Map<string, SchemaValidator>();
  /** The build-time validators by definition, once asked for (null: none, compile here). */
  private prebuilt: StandaloneValidators | null | undefined;

  /**
   * Registers a bundle; nothing is compiled until a kind is validated. `prebuilt`, called on the first
   * validation, gives the validators compiled from this very bundle at build time, or null.
   */
  constructor(
    readonly bundle: KubernetesSchemaBundle,
    private readonly loadPrebuilt: () => StandaloneValidators | null = () => null,
  ) {}

  /** The Kubernetes minor version of this store. */
  get kubernetesVersion(): string {
    return this.bundle.kubernetesVersion;
  }

  /** The definition name of a built-in kind, or undefined when the version does not serve it. */
  definitionOf(apiVersion: string, kind: string): string | undefined {
    return this.bundle.kinds[`${apiVersion}/${kind}`];
  }

  /** Whether any built-in kind uses this API group (the part of apiVersion before "/", "" for core). */
  hasGroup(group: string): boolean {
    const prefix = group === '' ? undefined : `${group}/`;
    return Object.keys(this.bundle.kinds).some((key) =>
      prefix === undefined ? key.split('/').length === 2 : key.startsWith(prefix),
    );
  }

  /** Every kind served under an apiVersion. */
  kindsOf(apiVersion: string): string[] {
    const prefix = `${apiVersion}/`;
    return Object.keys(this.bundle.kinds)
      .filter((key) => key.startsWith(prefix) && !key.slice(prefix.length).includes('/'))
      .map((key) => key.slice(prefix.length));
  }

  /** Whether the validators come from the build (standalone-validators.ts), once one was asked for. */
  get usesPrebuiltValidators(): boolean {
    return this.prebuilt !== undefined && this.prebuilt !== null;
  }

  /** The validator of a built-in kind: built at build time, or compiled once, on first use. */
  validatorFor(apiVersion: string, kind: string): SchemaValidator | undefined {
    const definition = this.definitionOf(apiVersion, kind);
    if (definition === undefined) {
      return undefined;
    }
    let validator = this.validators.get(definition);
    if (validator === undefined) {
      if (this.prebuilt === undefined) {
        this.prebuilt = this.loadPrebuilt();
      }
      validator =
        this.prebuilt?.validatorOf(definition) ??
        (this.ajv ??= createBundleAjv(this.bundle)).compile({
          $ref: `${BUNDLE_ID}#/definitions/${definition}`,
        });
      this.validators.set(definition, validator);
    }
    return validator;
  }

  /** Follows $ref until a schema with content. */
  resolve(schema: JsonSchema | undefined): JsonSchema | undefined {
    let current = schema;
    for (let hops = 0; current?.$ref !== undefined && hops < MAX_REF_HOPS; hops++) {
      const name = current.$ref.slice(current.$ref.lastIndexOf('/') + 1);
      const target = this.bundle.definitions[name];
      if (target === undefined) {
        return undefined;
      }
      current =
        current.description !== undefined && target.description === undefined
          ? { ...target, description: current.description }
          : target;
    }
    return current;
  }

  /**
   * The schema at a path inside a kind (["spec", "template", "spec", "containers", 0]), resolving $ref, or
   * undefined when the path leaves the schema. The description of a property is the one written on the property.
   */
  schemaAtPath(apiVersion: string, kind: string, path: readonly (string | number)[]): JsonSchema | undefined {
    const definition = this.definitionOf(apiVersion, kind);
    if (definition === undefined) {
      return undefined;
    }
    return this.walk(this.bundle.definitions[definition], path);
  }

  /** Walks a path down from a schema. */
  walk(start: JsonSchema | undefined, path: readonly (string | number)[]): JsonSchema | undefined {
    let current = this.resolve(start);
    for (const segment of path) {
      if (current === undefined) {
        return undefined;
      }
      let next: JsonSchema | undefined;
      if (typeof segment === 'number') {
        next = current.items;
      } else {
        const property = current.properties?.[segment];
        if (property !== undefined) {
          next = property;
        } else if (typeof current.additionalProperties === 'object') {
          next = current.additionalProperties;
        }
      }
      if (next === undefined) {
        return undefined;
      }
      const description = next.description;
      const resolved = this.resolve(next);
      current = resolved !== undefined && description !== undefined ? { ...resolved, description } : resolved;
    }
    return current;
  }
}
