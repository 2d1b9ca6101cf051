// Checks the packaged .vsix: the files the extension needs are in it (its icon, its changelog and the images its
// README shows among them), and nothing else of the repository is.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const vsix = process.argv[2] ?? 'kube-foresight.vsix';
// python3 is on every machine of this project's kind; unzip is not.
const listing = execFileSync(
  'python3',
  ['-c', 'import sys, zipfile; print("\\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))', vsix],
  { encoding: 'utf8' },
)
  .split('\n')
  .filter(Boolean);
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
// The README is packaged with its relative links as written (vsce --no-rewrite-relative-links: there is no
// repository to point them at), so VS Code's extension page shows the images only if they are packaged too.
const readmeImages = [...readFileSync('README.md', 'utf8').matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)]
  .map((match) => match[1])
  .filter((link) => !/^[a-z]+:/i.test(link));
const required = [
  'extension/package.json',
  'extension/readme.md',
  'extension/changelog.md',
  'extension/dist/client.js',
  'extension/dist/server.js',
  'extension/dist/prediction-worker.js',
  'extension/dist/cli.js',
  'extension/dist/cli-bundle.js',
  'extension/dist/cli-bundle.js.cache',
  'extension/dist/kubernetes-validators-1.35.js',
  'extension/dist/kubernetes-validators-1.35.js.cache',
  'extension/schemas/kubernetes/1.35.json',
  'extension/schemas/kubernetes/api-versions.json',
  `extension/${manifest.icon}`,
  ...readmeImages.map((image) => `extension/${image}`),
];
const missing = required.filter((file) => !listing.includes(file));
const forbidden = listing.filter((file) =>
  /^extension\/(node_modules|test|server\/src|client\/src|\.ci)\//.test(file),
);
console.log(`${vsix}: ${listing.length} files`);
if (missing.length > 0 || forbidden.length > 0) {
  if (missing.length > 0) console.error(`missing: ${missing.join(', ')}`);
  if (forbidden.length > 0) console.error(`should not be packaged: ${forbidden.slice(0, 10).join(', ')}`);
  process.exit(1);
}
console.log('vsix contents ok');
