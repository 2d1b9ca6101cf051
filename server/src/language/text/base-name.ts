/**
 * The last segment of a path or URI ("cluster.yaml" of "/work/app/.foresight/cluster.yaml" or of
 * "file:///work/app/.foresight/cluster.yaml"), for the names the language layer shows; the host reads no path
 * through it. A URI's segment is decoded ("my%20app" → "my app").
 */
export function baseNameOf(pathOrUri: string): string {
  const trimmed = pathOrUri.replace(/[/\\]+$/, '');
  const segment = trimmed.slice(Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\')) + 1);
  if (!pathOrUri.includes('://')) {
    return segment;
  }
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
