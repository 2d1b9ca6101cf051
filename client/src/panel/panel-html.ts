/**
 * A panel's HTML (the timeline's, and Preview Apply's with its own script and title): an empty page that loads the bundled script and stylesheet from dist/media under a
 * strict Content-Security-Policy. Nothing from the report goes in here: data travels by postMessage once the
 * page says it is ready. Each render gets a fresh nonce from a cryptographic source; scripts run only with it.
 * https://code.visualstudio.com/api/extension-guides/webview#content-security-policy
 */
import { randomBytes } from 'node:crypto';

/** What the page is built from: the webview's CSP source, the asset URIs (asWebviewUri) and the nonce. */
interface PanelHtmlInput {
  /** webview.cspSource: the origin the webview serves local resources from. */
  readonly cspSource: string;
  readonly scriptUri: string;
  readonly styleUri: string;
  readonly nonce: string;
  /** The page's title (the timeline's by default); escaped. */
  readonly title?: string;
}

const NONCE_PATTERN = /^[A-Za-z0-9+/_-]{16,}={0,2}$/;
/** One source of webview.cspSource: a host or scheme source, or the 'self' keyword (code-server, VS Code 1.9x+). */
const SOURCE_PATTERN = /^(?:'self'|[A-Za-z0-9*.:/_+-]+)$/;

/** A fresh nonce: 128 random bits, base64. */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

/** The Content-Security-Policy of the page. */
export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  // cspSource is a space-separated source list ("'self' https://*.vscode-cdn.net" in current VS Code): each
  // source must be one we understand, so nothing else (a ';' starting a new directive) can ride along.
  const sources = cspSource.trim().split(/\s+/);
  if (cspSource.trim() === '' || !sources.every((source) => SOURCE_PATTERN.test(source))) {
    throw new Error(`unexpected webview CSP source ${JSON.stringify(cspSource)}`);
  }
  const sourceList = sources.join(' ');
  if (!NONCE_PATTERN.test(nonce)) {
    throw new Error('the nonce must be base64 of at least 96 bits');
  }
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${sourceList}`,
    `font-src ${sourceList}`,
    `img-src ${sourceList}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** The page's HTML. */
export function buildPanelHtml(input: PanelHtmlInput): string {
  const policy = contentSecurityPolicy(input.cspSource, input.nonce);
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${escapeAttribute(policy)}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <link rel="stylesheet" href="${escapeAttribute(input.styleUri)}">
  <title>${escapeAttribute(input.title ?? 'Simulation Timeline')}</title>
</head>
<body>
  <div id="app" class="app" aria-busy="true"></div>
  <script nonce="${escapeAttribute(input.nonce)}" src="${escapeAttribute(input.scriptUri)}"></script>
</body>
</html>
`;
}

/** Escapes a value for a double-quoted HTML attribute. */
export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
