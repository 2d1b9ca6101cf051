import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import MarkdownIt from 'markdown-it';
import { ROOT, scratch } from './cli-harness';
import { largeDeployment, runPlanCli } from './plan-support';

// The plan as a pull-request comment, rendered with markdown-it (CommonMark with GitHub's tables, the renderer
// VS Code's own Markdown preview uses) with raw HTML allowed as GitHub allows <details>: every table well-formed,
// every <details> closed, and the text under GitHub's 65,536-character comment limit with an explicit cut.

const COMMENT_LIMIT = 65_536;

/** Checks what GitHub would render badly, and returns the rendered HTML. */
function renderChecked(markdown: string): string {
  const html = new MarkdownIt({ html: true }).render(markdown);
  let depth = 0;
  for (const tag of html.match(/<\/?details>/g) ?? []) {
    depth += tag === '<details>' ? 1 : -1;
    assert.ok(depth === 0 || depth === 1, `<details> nested or closed twice:\n${markdown}`);
  }
  assert.equal(depth, 0, 'every <details> is closed');
  // Each source table: every row has the header's number of cells (a cell's own pipes are escaped), and renders.
  const tables: string[][] = [];
  let current: string[] | null = null;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('|')) {
      current ??= [];
      current.push(line);
    } else if (current !== null) {
      tables.push(current);
      current = null;
    }
  }
  const cellsOf = (line: string): number => line.replace(/\\\|/g, '').split('|').length - 2;
  for (const table of tables) {
    const header = cellsOf(table[0] ?? '');
    for (const row of table) {
      assert.equal(cellsOf(row), header, `a row with the wrong number of cells: ${row}`);
    }
  }
  assert.equal((html.match(/<table>/g) ?? []).length, tables.length, 'every table renders as a table');
  const rows = tables.reduce((sum, table) => sum + table.length - 1, 0);
  assert.equal((html.match(/<tr>/g) ?? []).length, rows, 'every row renders as a row');
  return html;
}

describe('foresight plan --output markdown', () => {
  test('a plan with every section renders: summary and table first, each part in a closed <details>', () => {
    const dir = scratch({
      'big.yaml': largeDeployment('search', 'default', true),
      'ingress.yaml':
        'apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: shop}\n' +
        'spec:\n  defaultBackend: {service: {name: storefront, port: {number: 80}}}\n',
    });
    const result = runPlanCli([
      '--cluster',
      'examples/.foresight/cluster.yaml',
      '--output',
      'markdown',
      'examples/web-app',
      dir,
    ]);
    const markdown = result.stdout;
    assert.ok(
      markdown.startsWith('<!-- foresight-plan -->\n### Kube Foresight plan: **'),
      markdown.slice(0, 200),
    );
    const html = renderChecked(markdown);
    // The summary table comes before the first collapsed section.
    assert.ok(html.indexOf('<table>') < html.indexOf('<details>'));
    const summaries = [...html.matchAll(/<summary>([^<]*)<\/summary>/g)].map((match) => match[1]);
    assert.deepEqual(summaries, [
      'Problems (3)',
      'Rollouts (2)',
      'Changes (5 objects)',
      'Capacity (requested: before → after)',
      'What this plan cannot know (3)',
    ]);
    // Inside <details>, Markdown still renders (a blank line follows each <summary>).
    assert.match(
      html,
      /<td><code>spec\.template\.spec\.containers\[0\]\.image<\/code>: <code>ghcr\.io\/example\/storefront:2\.13\.0<\/code> → <code>ghcr\.io\/example\/storefront:2\.14\.1<\/code><\/td>/,
    );
    assert.match(html, /node added: <code>burst-1<\/code> \(group burst\)/);
    assert.match(html, /not simulated: what the controllers of Ingress \(1\) do once applied/);
    // A backtick in a message stays text: no stray code span swallows the rest of the row.
    assert.match(html, /until the cluster autoscaler adds a node to group `burst`/);
    assert.ok(markdown.length < COMMENT_LIMIT);
  });

  test('a 1,000-resource change stays under the comment limit with an explicit "… N more" cut, still well-formed', () => {
    const documents = Array.from(
      { length: 1000 },
      (_, index) =>
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: feature-flags-for-the-checkout-service-${String(index).padStart(4, '0')}\n` +
        `  namespace: store\ndata:\n  flag: "on"\n`,
    );
    const dir = scratch({ 'flags.yaml': documents.join('---\n') });
    const result = runPlanCli([
      '--cluster',
      'examples/captured/.foresight/cluster.yaml',
      '-o',
      'markdown',
      dir,
    ]);
    assert.equal(result.code, 0, result.stderr);
    const markdown = result.stdout;
    assert.ok(markdown.length <= COMMENT_LIMIT, `${markdown.length} characters`);
    renderChecked(markdown);
    const shown = markdown
      .split('\n')
      .filter((line) => line.startsWith('| created | ConfigMap store/')).length;
    const cut =
      /… (\d+) more objects not shown \(a comment holds 65536 characters\): `foresight plan --output json` lists them all\./.exec(
        markdown,
      );
    assert.ok(cut !== null, 'the cut is said');
    assert.equal(shown + Number(cut[1]), 1000);
    assert.ok(shown > 100, `${shown} rows shown`);
    // The sections after the cut are still there, closed.
    assert.match(markdown, /<details><summary>What this plan cannot know \(\d+\)<\/summary>/);
  });

  test('docs/ci.md shows the job that posts the plan as a comment and updates it by its marker', () => {
    const ci = readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8');
    assert.match(
      ci,
      /foresight plan -R --cluster \.foresight\/cluster\.yaml --output markdown k8s\/ > plan\.md/,
    );
    assert.match(ci, /<!-- foresight-plan -->/);
    assert.match(ci, /gh api/);
  });
});
