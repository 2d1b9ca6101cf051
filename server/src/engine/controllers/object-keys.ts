/**
 * The "namespace/name" keys a controller's pod listener names, each made once per object instead of once per pod
 * event: the ReplicaSet controller hears every change of every pod it owns (created, bound, started, ready…), and a
 * new string per event was most of what the listener allocated. The same text is returned each time.
 */
export class ObjectKeys {
  private readonly byNamespace = new Map<string, Map<string, string>>();

  /** `${namespace}/${name}`. */
  keyOf(namespace: string, name: string): string {
    let names = this.byNamespace.get(namespace);
    if (names === undefined) {
      names = new Map();
      this.byNamespace.set(namespace, names);
    }
    let key = names.get(name);
    if (key === undefined) {
      key = `${namespace}/${name}`;
      names.set(name, key);
    }
    return key;
  }
}
