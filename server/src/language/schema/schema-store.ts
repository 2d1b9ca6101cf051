/**
 * The JSON schemas of one Kubernetes version (schemas/kubernetes/<minor>.json), compiled with ajv on first use
 * per kind, and walked by path for hover and completion. Pure: the caller loads the bundle.
 */
import Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import { isQuantityText } from './quantity-format';

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

const BUNDLE_ID = 'https://kube-foresight.invalid/kubernetes.json';
const MAX_REF_HOPS = 64;

/** Compiled validators and schema lookups for one Kubernetes version. */
export class SchemaStore {
  private readonly ajv: Ajv;
  private readonly validators = new Map<string, ValidateFunction>();

  /** Registers a bundle; nothing is compiled until a kind is validated. */
  constructor(readonly bundle: KubernetesSchemaBundle) {
    // code.optimize off: ajv's extra passes over the generated code cost ~40% of compiling a kind (about 140 ms
    // of the first Deployment, Service and ConfigMap, i.e. of a cold start) and change neither results nor
    // validation speed (README, "Benchmarks"; test/language/schema/unoptimized-validators.test.ts).
    this.ajv = new Ajv({
      allErrors: true,
      strict: false,
      verbose: true,
      validateSchema: false,
      code: { optimize: false },
    });
    this.ajv.addFormat('quantity', { type: 'string', validate: isQuantityText });
    this.ajv.addSchema({ $id: BUNDLE_ID, definitions: bundle.definitions });
  }

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

  /** The compiled validator of a built-in kind (compiled once, on first use). */
  validatorFor(apiVersion: string, kind: string): ValidateFunction | undefined {
    const definition = this.definitionOf(apiVersion, kind);
    if (definition === undefined) {
      return undefined;
    }
    let validator = this.validators.get(definition);
    if (validator === undefined) {
      validator = this.ajv.compile({ $ref: `${BUNDLE_ID}#/definitions/${definition}` });
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
