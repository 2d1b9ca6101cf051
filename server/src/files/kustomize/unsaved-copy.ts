/**
 * Renders a kustomization with an editor's unsaved text: the unit's files (kustomization-tree.ts lists them) are
 * copied into a temporary folder, keeping their paths relative to their common folder, the open editors' texts
 * written over them, and the copy rendered; the rendered objects' source paths and kustomize's message are then
 * told as the real files' paths. kustomize sees the same layout, so its load restrictions and relative paths
 * behave as on disk. A file the tree does not list (a field it does not read) is missing from the copy, so a
 * unit is rendered from a copy only while one of its files has unsaved changes (overlay-renders.ts).
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import type { RenderResult } from './render-kustomization';

/** Renders `folder` from a copy of `files` in which `texts` (by absolute path) replace the files' contents. */
export async function renderFromCopy(
  files: ReadonlySet<string>,
  folder: string,
  texts: ReadonlyMap<string, string>,
  render: (folder: string) => Promise<RenderResult>,
): Promise<RenderResult> {
  const common = commonFolder([...files, folder]);
  const copy = await mkdtemp(join(tmpdir(), 'foresight-unsaved-'));
  try {
    for (const file of files) {
      const target = join(copy, relative(common, file));
      await mkdir(dirname(target), { recursive: true });
      let text = texts.get(file);
      if (text === undefined) {
        try {
          text = readFileSync(file, 'utf8');
        } catch {
          continue; // kustomize reports the missing file, as it would on disk
        }
      }
      await writeFile(target, text);
    }
    const result = await render(join(copy, relative(common, folder)));
    const real = (path: string): string => (path.startsWith(copy) ? common + path.slice(copy.length) : path);
    return result.ok
      ? { ...result, objects: result.objects.map((object) => ({ ...object, source: real(object.source) })) }
      : { ...result, message: result.message.split(copy).join(common) };
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
}

/** The deepest folder holding every path. */
function commonFolder(paths: readonly string[]): string {
  const split = paths.map((path) => dirname(path).split(sep));
  const first = split[0] ?? [];
  let length = first.length;
  for (const parts of split) {
    let shared = 0;
    while (shared < Math.min(length, parts.length) && parts[shared] === first[shared]) {
      shared++;
    }
    length = shared;
  }
  return first.slice(0, length).join(sep) || sep;
}
