/**
 * Where an engine object came from, so that a finding about it can be shown on the right YAML node.
 * Plain data: the engine never sees YAML nodes or files, only these pointers, which the language server
 * (and the CLI) resolve back to ranges.
 */
export interface ObjectSource {
  /** The file (a path or a URI string) the object was read from. */
  readonly file: string;
  /** The index of the YAML document ("---" section) in that file, from 0. */
  readonly documentIndex: number;
  /**
   * Path inside that document's object to the part this engine object stands for: [] for the object itself,
   * ['items', 3] for an item of a List, ['spec', 'template'] for a pod made from a workload's template.
   */
  readonly path: readonly (string | number)[];
}
