/**
 * What the output-format tests share: the CLI run in process with a fake CliIo (and environment), the fixture
 * folder, scratch folders, and a small strict XML reader that fails on what an XML 1.0 parser refuses.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../server/src/cli';

/** The repository root. */
export const ROOT = join(__dirname, '..', '..');

/** The CLI fixtures (test/fixtures/cli), relative to ROOT. */
export const FIXTURES = 'test/fixtures/cli';

/** What one run gave. */
export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `foresight ARGS` in `cwd` (the repository root by default) with an environment and standard input. */
export async function runForesight(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; stdin?: string } = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    cwd: options.cwd ?? ROOT,
    env: options.env ?? {},
    ...(options.stdin === undefined ? {} : { readStdin: () => options.stdin ?? '' }),
  });
  return { code, stdout, stderr };
}

/** A temporary folder with these files. */
export function scratch(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'foresight-formats-'));
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** An element of a parsed XML document. */
export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly XmlElement[];
  /** The element's own text, references decoded. */
  readonly text: string;
}

/** Characters XML 1.0 allows (§2.2 Char). */
const XML_CHAR = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

const ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * Parses the subset of XML the JUnit output uses (a declaration, elements, attributes in double quotes, text,
 * predefined and numeric references), strictly: a raw "<" or "&" in text or attributes, a character XML 1.0
 * forbids, a mismatched tag or trailing content throws. Attribute values are normalised as XML parsers do
 * (a literal tab, LF or CR becomes a space; references keep them).
 */
export function parseXml(source: string): XmlElement {
  if (!XML_CHAR.test(source)) {
    throw new Error('the document has a character XML 1.0 does not allow');
  }
  let position = 0;
  const rest = (): string => source.slice(position);
  const fail = (what: string): never => {
    throw new Error(`${what} at ${position}: ${JSON.stringify(rest().slice(0, 40))}`);
  };
  const decode = (raw: string): string => {
    if (raw.includes('<')) {
      fail('a raw "<"');
    }
    return raw.replace(/&([^;]*);|&/g, (whole, name: string | undefined) => {
      if (name === undefined) {
        return fail('a bare "&"');
      }
      if (name.startsWith('#x')) {
        return String.fromCodePoint(parseInt(name.slice(2), 16));
      }
      if (name.startsWith('#')) {
        return String.fromCodePoint(parseInt(name.slice(1), 10));
      }
      return ENTITIES[name] ?? fail(`an unknown entity ${whole}`);
    });
  };
  const element = (): XmlElement => {
    const open = /^<([A-Za-z_][\w.-]*)/.exec(rest());
    if (open === null) {
      return fail('expected an element');
    }
    const name = open[1] ?? '';
    position += open[0].length;
    const attributes: Record<string, string> = {};
    for (;;) {
      const attribute = /^\s+([A-Za-z_][\w.-]*)="([^"]*)"/.exec(rest());
      if (attribute === null) {
        break;
      }
      const key = attribute[1] ?? '';
      if (key in attributes) {
        fail(`attribute ${key} twice`);
      }
      attributes[key] = decode((attribute[2] ?? '').replace(/[\t\n\r]/g, ' '));
      position += attribute[0].length;
    }
    const selfClosing = /^\s*\/>/.exec(rest());
    if (selfClosing !== null) {
      position += selfClosing[0].length;
      return { name, attributes, children: [], text: '' };
    }
    const close = /^\s*>/.exec(rest());
    if (close === null) {
      return fail(`malformed start tag <${name}`);
    }
    position += close[0].length;
    const children: XmlElement[] = [];
    let text = '';
    for (;;) {
      if (rest().startsWith('</')) {
        const end = new RegExp(`^</${name}\\s*>`).exec(rest());
        if (end === null) {
          return fail(`expected </${name}>`);
        }
        position += end[0].length;
        return { name, attributes, children, text };
      }
      if (rest().startsWith('<')) {
        children.push(element());
        continue;
      }
      const next = source.indexOf('<', position);
      if (next < 0) {
        return fail(`unclosed <${name}>`);
      }
      text += decode(source.slice(position, next).replace(/\r\n?/g, '\n'));
      position = next;
    }
  };
  const declaration = /^<\?xml[^?]*\?>\s*/.exec(source);
  position = declaration?.[0].length ?? 0;
  const root = element();
  if (rest().trim() !== '') {
    fail('content after the root element');
  }
  return root;
}

/** The children of an element with a name. */
export function childrenNamed(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((child) => child.name === name);
}
