import { maxOf } from '../../../../protocol/collections';
/**
 * Markdown for hovers and completion documentation. Text from the manifest (keys, paths) and from the schema
 * (plain-text descriptions that contain `<name>`, `*` or `_`) is escaped so that the editor shows it as written;
 * URLs in descriptions stay as they are so that they remain links.
 */

/** Instance path segments. */
type PathSegments = readonly (string | number)[];

const PLAIN_KEY_PATTERN = /^[A-Za-z_$][\w$-]*$/;
const URL_PATTERN = /https?:\/\/[^\s<>"'`)\]]+[^\s<>"'`)\].,;:!?]/g;
const SPECIAL_CHARACTERS = /[\\`*_[\]<>#|~&]/g;
const BULLET_MARKER = /^(\s*)([-+=])(?=\s|$)/;
const ORDERED_MARKER = /^(\s*\d+)([.)])(?=\s|$)/;

/** The most characters of a description shown in a hover or completion item. */
export const MAX_DESCRIPTION_LENGTH = 600;

/** Escapes text so that Markdown shows it literally. */
export function escapeMarkdown(text: string): string {
  return text
    .split('\n')
    .map((line) =>
      line
        .replace(SPECIAL_CHARACTERS, '\\$&')
        .replace(BULLET_MARKER, '$1\\$2')
        .replace(ORDERED_MARKER, '$1\\$2'),
    )
    .join('\n');
}

/** Escapes plain text but leaves the URLs in it untouched, so that they are still shown as links. */
export function escapeMarkdownKeepingUrls(text: string): string {
  let result = '';
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    result += escapeMarkdown(text.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  return result + escapeMarkdown(text.slice(last));
}

/** An inline code span that shows any text literally (the fence is longer than any backtick run inside). */
export function inlineCode(text: string): string {
  const longestRun = maxOf(
    (text.match(/`+/g) ?? []).map((run) => run.length),
    0,
  );
  const fence = '`'.repeat(longestRun + 1);
  const padding = text.startsWith('`') || text.endsWith('`') || text.trim() === '' ? ' ' : '';
  return `${fence}${padding}${text}${padding}${fence}`;
}

/** A path as users write it: spec.template.spec.containers[0].image, metadata.labels["app.kubernetes.io/name"]. */
export function formatMarkdownPath(path: PathSegments): string {
  let result = '';
  for (const segment of path) {
    if (typeof segment === 'number') {
      result += `[${segment}]`;
    } else if (PLAIN_KEY_PATTERN.test(segment)) {
      result += result === '' ? segment : `.${segment}`;
    } else {
      result += `[${JSON.stringify(segment)}]`;
    }
  }
  return result;
}

/**
 * The first paragraph or two of a schema description, shortened at a sentence end when it is long, escaped for
 * Markdown.
 */
export function summarizeDescription(description: string): string {
  const paragraphs = description
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '');
  let text = paragraphs.slice(0, 2).join('\n\n');
  if (text.length > MAX_DESCRIPTION_LENGTH) {
    const cut = text.slice(0, MAX_DESCRIPTION_LENGTH);
    const sentenceEnd = cut.lastIndexOf('. ');
    text = `${sentenceEnd > MAX_DESCRIPTION_LENGTH / 3 ? cut.slice(0, sentenceEnd + 1) : cut.trimEnd()} …`;
  } else if (paragraphs.length > 2) {
    text += ' …';
  }
  return escapeMarkdownKeepingUrls(text);
}

/** A list of allowed values as code spans. */
export function formatAllowedValues(values: readonly string[]): string {
  return values.map((value) => inlineCode(value)).join(', ');
}
