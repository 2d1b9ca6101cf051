/** Writes FILE.cache, V8's code cache, beside each file (paths relative to the project root). */
export declare function writeCodeCaches(files: readonly string[]): Promise<void>;
