/**
 * The chart templates behind `helm template` output, where the chart is in the workspace: a finding named after
 * `CHART/templates/FILE` (language/manifests/helm-sources.ts) is also related to that template file when a folder
 * below the working directory holds a Chart.yaml whose `name` is CHART (and the file exists), so a reader of the
 * SARIF or JSON output can open the template to fix rather than the generated line.
 *
 * The walk is bounded (depth and folders) and skips hidden folders and node_modules, as a workspace search would.
 */
import type { Dirent } from 'node:fs';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Finding } from '../language/service';

/** How deep below the working directory chart folders are looked for. */
const MAX_DEPTH = 6;

/** The most folders read while looking. */
const MAX_FOLDERS = 5000;

/** A Chart.yaml's top-level `name:` line (a chart's name is a plain word: helm's chartutil validates it). */
const CHART_NAME = /^name:\s*["']?([^"'\s#]+)["']?\s*(?:#.*)?$/m;

/** The chart folders below `root`, by the name their Chart.yaml gives (the first found for a name). */
export function findChartFolders(root: string): Map<string, string> {
  const charts = new Map<string, string>();
  const queue: { folder: string; depth: number }[] = [{ folder: root, depth: 0 }];
  let read = 0;
  while (queue.length > 0 && read < MAX_FOLDERS) {
    const { folder, depth } = queue.shift() ?? { folder: root, depth: 0 };
    read++;
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    if (entries.some((entry) => entry.isFile() && entry.name === 'Chart.yaml')) {
      const name = chartNameOf(join(folder, 'Chart.yaml'));
      if (name !== undefined && !charts.has(name)) {
        charts.set(name, folder);
      }
    }
    if (depth >= MAX_DEPTH) {
      continue;
    }
    for (const entry of entries) {
      if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules') {
        queue.push({ folder: join(folder, entry.name), depth: depth + 1 });
      }
    }
  }
  return charts;
}

/**
 * The findings named after a chart template, each related to that template's file where the chart is in the
 * workspace (below `root`); `display` names a path as the outputs show it.
 */
export function relateChartTemplates(
  findings: readonly Finding[],
  root: string,
  display: (path: string) => string,
): Finding[] {
  if (!findings.some((finding) => finding.place?.origin?.helmTemplate !== undefined)) {
    return [...findings];
  }
  const charts = findChartFolders(root);
  return findings.map((finding) => {
    const template = finding.place?.origin?.helmTemplate;
    const file = template === undefined ? undefined : templateFile(template, charts);
    return file === undefined || template === undefined
      ? finding
      : {
          ...finding,
          related: [
            ...(finding.related ?? []),
            { place: { file: display(file) }, message: `rendered by helm template from ${template}` },
          ],
        };
  });
}

/** The file of `CHART/PATH` in the chart folder named CHART, when it exists. */
function templateFile(template: string, charts: ReadonlyMap<string, string>): string | undefined {
  const slash = template.indexOf('/');
  const parts = template.slice(slash + 1).split('/');
  // A path of the chart's own files only: a comment that names a way out of the chart is not followed.
  const folder = slash < 0 || parts.includes('..') ? undefined : charts.get(template.slice(0, slash));
  const file = folder === undefined ? undefined : join(folder, ...parts);
  return file !== undefined && existsSync(file) ? file : undefined;
}

function chartNameOf(file: string): string | undefined {
  try {
    return CHART_NAME.exec(readFileSync(file, 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}
