/**
 * What crosses to the prediction worker, incrementally. Keystroke after keystroke, the manifests of unchanged
 * documents are the same objects (the analyzer reuses its documents; nothing mutates what it read, see
 * simulation-inputs.ts), so the server's side numbers each object once and sends an object only when the worker
 * does not hold it yet: a keystroke that edits one Deployment sends that Deployment and the numbers of the others.
 * A document analysed afresh (closed and opened again) gives new objects of the same data: an object equal to the
 * one the worker holds for the same source (file, document, path) takes that one's number, so it is not copied
 * again and the worker runs on the very objects it held, whose hashes and classes it has already computed
 * (engine/workloads/hash.ts keeps a template's hash by object).
 * The worker keeps exactly the objects of its last request, with their sources (memory stays that of one scope),
 * and rebuilds the same input, the held objects being the same objects run after run there too; a held object
 * whose source is the one the worker holds it at goes as its number alone. The cluster file's objects are sent
 * again only when its text changed. Everything here is plain data for structured clone.
 */
import type { ObjectSource, ScopeSimulationInput, SourcedObject } from '../language/service';
import type { EncodedAnswer } from './answer-transfer';
import { isSamePlainData } from './same-plain-data';

/** One manifest as sent: its number, and its source and the object itself unless the worker holds them. */
interface TransferredObject {
  /** The object's number; 0 for a value that is not an object (sent inline each time, with its source). */
  readonly ref: number;
  /** Its source, unless it is the one the worker holds the object at (a request's 1,000 sources cost 1 ms). */
  readonly source?: ObjectSource;
  /** The object, when the worker does not hold it (or it is not an object). */
  readonly object?: unknown;
}

/** A request to the worker: one scope's engine input, as the differences from the worker's last request. */
export interface SimulationRequestMessage {
  /** The request's number, echoed by the answer. */
  readonly id: number;
  readonly manifests: readonly TransferredObject[];
  /** The cluster file's objects; 'held' when they are those of the worker's last request. */
  readonly cluster: readonly SourcedObject[] | null | 'held';
  readonly rest: Omit<ScopeSimulationInput, 'manifests' | 'cluster'>;
}

/**
 * The worker's answer: the scope's simulation (a ScopeSimulation, as the differences from the worker's last
 * answer: answer-transfer.ts), or the error that stopped it, or that it was abandoned.
 */
export type SimulationAnswerMessage =
  | { readonly id: number; readonly ok: true; readonly result: EncodedAnswer }
  | { readonly id: number; readonly ok: false; readonly abandoned: boolean; readonly message: string };

/**
 * What the worker is started with: shared integers the engine reads between tasks.
 */
export interface SimulationWorkerData {
  /** The number of the request the server abandons (its document changed). */
  readonly abandoned: SharedArrayBuffer;
  /**
   * One shared integer, the number of requests the server has posted: the worker compares it with the number it
   * has received to stop a warm-up run as soon as a request is on its way (worker-warm-up.ts).
   */
  readonly posted: SharedArrayBuffer;
  /** How many warm-up runs the worker may spend in its life (worker-warm-up.ts). */
  readonly warmUpRuns: number;
}

/** The server's side: numbers objects and remembers what the worker holds. */
export class SimulationEncoder {
  private readonly refs = new WeakMap<object, number>();
  private nextRef = 1;
  /** The objects the worker holds (those of the last request), by number, at the source each was last sent at. */
  private held = new Map<number, HeldObject>();
  /**
   * The same by source (sourceKey), built when first looked up: only an object the worker does not hold by
   * identity is (a document analysed afresh), so a keystroke's request keys no source.
   */
  private heldBySource: Map<string, HeldObject> | undefined;
  /** The cluster file's text whose objects the worker holds; undefined when it holds none. */
  private heldClusterText: string | undefined;
  private nextId = 1;

  /**
   * The message for an input; `clusterText` is the text the input's cluster objects were read from (the same
   * text gives the same objects).
   */
  encode(input: ScopeSimulationInput, clusterText: string): SimulationRequestMessage {
    const held = new Map<number, HeldObject>();
    const manifests = input.manifests.map(({ object, source }): TransferredObject => {
      if (typeof object !== 'object' || object === null) {
        return { ref: 0, source, object };
      }
      const ref = this.refOf(object, source);
      // What the worker will have for this number when it reaches this entry: as the decoder looks it up.
      const before = held.get(ref) ?? this.held.get(ref);
      held.set(ref, { ref, object, source });
      if (before === undefined) {
        return { ref, source, object };
      }
      // The same data, not only the same place: the worker's copy of the source is what the engine is given.
      return isSamePlainData(before.source, source) ? { ref } : { ref, source };
    });
    let cluster: SimulationRequestMessage['cluster'] = input.cluster;
    if (input.cluster === null) {
      this.heldClusterText = undefined;
    } else if (this.heldClusterText === clusterText) {
      cluster = 'held';
    } else {
      this.heldClusterText = clusterText;
    }
    this.held = held;
    this.heldBySource = undefined;
    const rest = {
      clusterFile: input.clusterFile,
      version: input.version,
      forcedNotice: input.forcedNotice,
      hasClusterSyntaxErrors: input.hasClusterSyntaxErrors,
    };
    return { id: this.nextId++, manifests, cluster, rest };
  }

  /**
   * Numbers the objects of a coming request ahead of it (encode would do the same): an object that is the same
   * data as the one the worker holds for its source takes that one's number now, so the request finds it held
   * without comparing. Nothing is sent and what the worker holds is unchanged.
   */
  recognize(manifests: readonly SourcedObject[]): void {
    for (const { object, source } of manifests) {
      if (typeof object === 'object' && object !== null) {
        this.refOf(object, source);
      }
    }
  }

  /** Forgets what the worker held (a new worker holds nothing). */
  reset(): void {
    this.held = new Map();
    this.heldBySource = undefined;
    this.heldClusterText = undefined;
  }

  /**
   * The object's number: its own when the worker holds it; else that of the object the worker holds for the same
   * source when the two are the same data (a document analysed afresh); else its own, new if it has none.
   */
  private refOf(object: object, source: ObjectSource): number {
    const own = this.refs.get(object);
    if (own !== undefined && this.held.has(own)) {
      return own;
    }
    this.heldBySource ??= new Map([...this.held.values()].map((entry) => [sourceKey(entry.source), entry]));
    const before = this.heldBySource.get(sourceKey(source));
    if (before !== undefined && isSamePlainData(before.object, object)) {
      this.refs.set(object, before.ref);
      return before.ref;
    }
    if (own !== undefined) {
      return own;
    }
    const ref = this.nextRef++;
    this.refs.set(object, ref);
    return ref;
  }
}

/** An object the worker holds, with its number and the source it holds it at. */
interface HeldObject {
  readonly ref: number;
  readonly object: object;
  readonly source: ObjectSource;
}

/** One text per source: file, document and path. */
function sourceKey(source: ObjectSource): string {
  return JSON.stringify([source.file, source.documentIndex, source.path]);
}

/** The worker's side: holds the objects of the last request and rebuilds each input from a message. */
export class SimulationDecoder {
  /** The objects of the last request by number, at the source each was last given. */
  private objects = new Map<number, SourcedObject>();
  private cluster: readonly SourcedObject[] | null = null;

  /**
   * The engine input a message stands for; throws when it names an object not held, or sends no source for a
   * value that is not one (a protocol error).
   */
  decode(message: SimulationRequestMessage): ScopeSimulationInput {
    const objects = new Map<number, SourcedObject>();
    const manifests = message.manifests.map(({ ref, source, object }): SourcedObject => {
      if (ref === 0) {
        if (source === undefined) {
          throw new Error('prediction worker: a value sent without its source');
        }
        return { object, source };
      }
      const known = objects.get(ref) ?? this.objects.get(ref);
      const value = object ?? known?.object;
      const at = source ?? known?.source;
      if (value === undefined || at === undefined) {
        throw new Error(`prediction worker: object ${ref} is not held`);
      }
      const sourced = { object: value, source: at };
      objects.set(ref, sourced);
      return sourced;
    });
    if (message.cluster === 'held') {
      if (this.cluster === null) {
        throw new Error('prediction worker: the cluster objects are not held');
      }
    } else {
      this.cluster = message.cluster;
    }
    this.objects = objects;
    return { ...message.rest, manifests, cluster: this.cluster };
  }
}
