/** Writes FILE.cache, V8's code cache, beside each file (paths relative to the project root). */
export declare function writeCodeCaches(files: readonly string[]): Promise<void>;

/** Writes the caches of dist/cli-bundle.js and of the files it loaded, after it has validated a sample. */
export declare function writeCliCodeCaches(): Promise<string[]>;
