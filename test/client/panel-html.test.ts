/**
 * The timeline panel's HTML and its Content-Security-Policy: default-src 'none', scripts only with the render's
 * nonce, styles, fonts and images only from the webview's CSP source, a fresh nonce per render, no data and no
 * inline code in the page. Also: the command and the serializer's activation event are declared in the manifest.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  buildPanelHtml,
  contentSecurityPolicy,
  createNonce,
  escapeAttribute,
} from '../../client/src/panel/panel-html';
import { TIMELINE_VIEW_TYPE } from '../../client/src/panel/view-type';

const CSP_SOURCE = 'https://*.vscode-cdn.net';
const render = (nonce = createNonce()): string =>
  buildPanelHtml({
    cspSource: CSP_SOURCE,
    scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/media/main.js',
    styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/media/main.css',
    nonce,
  });

function policyOf(html: string): Map<string, string> {
  const match = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  assert.ok(match?.[1] !== undefined, 'the page has a CSP meta tag');
  const content = match[1].replace(/&#39;|&apos;/g, "'");
  return new Map(
    content.split(';').map((directive) => {
      const [name = '', ...values] = directive.trim().split(/\s+/);
      return [name, values.join(' ')];
    }),
  );
}

describe('timeline panel HTML', () => {
  const cases: readonly { name: string; directive: string; expected: (nonce: string) => string }[] = [
    { name: 'everything not allowed below is refused', directive: 'default-src', expected: () => "'none'" },
    {
      name: "scripts run only with the render's nonce",
      directive: 'script-src',
      expected: (nonce) => `'nonce-${nonce}'`,
    },
    {
      name: "styles load only from the webview's CSP source",
      directive: 'style-src',
      expected: () => CSP_SOURCE,
    },
    {
      name: "fonts load only from the webview's CSP source",
      directive: 'font-src',
      expected: () => CSP_SOURCE,
    },
    {
      name: "images load only from the webview's CSP source",
      directive: 'img-src',
      expected: () => CSP_SOURCE,
    },
    { name: 'no base URL can be set', directive: 'base-uri', expected: () => "'none'" },
    { name: 'no form can be submitted', directive: 'form-action', expected: () => "'none'" },
  ];
  for (const { name, directive, expected } of cases) {
    test(`the policy says ${directive} ${name}`, () => {
      const nonce = createNonce();
      assert.equal(policyOf(render(nonce)).get(directive), expected(nonce));
    });
  }

  test('the policy has no unsafe-inline, unsafe-eval or wildcard source', () => {
    const html = render();
    const policy = [...policyOf(html).values()].join(' ');
    assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval|(^|\s)\*(\s|$)|data:|blob:/);
  });

  test('every render gets a fresh 128-bit nonce from a cryptographic source', () => {
    const nonces = new Set(Array.from({ length: 50 }, () => createNonce()));
    assert.equal(nonces.size, 50);
    for (const nonce of nonces) {
      assert.equal(Buffer.from(nonce, 'base64').length, 16);
    }
    assert.notEqual(policyOf(render()).get('script-src'), policyOf(render()).get('script-src'));
  });

  test('the only script is the bundled one, carrying the nonce; there is no inline script or handler', () => {
    const nonce = createNonce();
    const html = render(nonce);
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.equal(scripts.length, 1);
    assert.match(scripts[0]?.[1] ?? '', new RegExp(`nonce="${nonce.replace(/[+/]/g, '\\$&')}"`));
    assert.match(
      scripts[0]?.[1] ?? '',
      /src="https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/ext\/dist\/media\/main\.js"/,
    );
    assert.equal(scripts[0]?.[2], '');
    assert.doesNotMatch(html, /\son[a-z]+=/i);
    assert.doesNotMatch(html, /<style\b|style="/i);
  });

  test('the page carries no data: an empty app element waits for postMessage', () => {
    assert.match(render(), /<div id="app" class="app" aria-busy="true"><\/div>/);
  });

  test('asset URIs are escaped in their attributes', () => {
    const html = buildPanelHtml({
      cspSource: CSP_SOURCE,
      scriptUri: 'https://x/"><script>alert(1)</script>',
      styleUri: 'https://x/a&b',
      nonce: createNonce(),
    });
    assert.doesNotMatch(html, /"><script>alert/);
    assert.match(html, /href="https:\/\/x\/a&amp;b"/);
    assert.equal(escapeAttribute(`"<&>'`), `&quot;&lt;&amp;&gt;'`);
  });

  test("the source list of current VS Code and code-server ('self' and a CDN host) goes into every resource directive", () => {
    const policy = contentSecurityPolicy("'self' https://*.vscode-cdn.net", createNonce());
    assert.match(policy, /style-src 'self' https:\/\/\*\.vscode-cdn\.net;/);
    assert.match(policy, /font-src 'self' https:\/\/\*\.vscode-cdn\.net;/);
    assert.match(policy, /img-src 'self' https:\/\/\*\.vscode-cdn\.net;/);
    assert.doesNotMatch(policy, /unsafe/);
  });

  const refused: readonly { name: string; source: string; nonce: string }[] = [
    {
      name: 'a CSP source that would add a directive',
      source: "https://x; script-src 'unsafe-inline'",
      nonce: createNonce(),
    },
    { name: 'a CSP source with quotes', source: "'unsafe-eval'", nonce: createNonce() },
    { name: 'a quoted keyword beside a host', source: "'self' 'unsafe-inline'", nonce: createNonce() },
    { name: 'an empty CSP source', source: '  ', nonce: createNonce() },
    { name: 'a nonce that is too short', source: CSP_SOURCE, nonce: 'abc' },
    { name: 'a nonce with a quote', source: CSP_SOURCE, nonce: "AAAAAAAAAAAAAAAAAAAAAA=='" },
  ];
  for (const { name, source, nonce } of refused) {
    test(`building the policy throws for ${name}`, () => {
      assert.throws(() => contentSecurityPolicy(source, nonce));
    });
  }

  test('the manifest declares the command under the category and the serializer’s activation event', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as {
      activationEvents: string[];
      contributes: { commands: { command: string; title: string; category: string }[] };
      scripts: Record<string, string>;
    };
    assert.deepEqual(
      manifest.contributes.commands.find((command) => command.command === 'kubeForesight.showTimeline'),
      {
        command: 'kubeForesight.showTimeline',
        title: 'Show Simulation Timeline',
        category: 'Kube Foresight',
      },
    );
    assert.ok(manifest.activationEvents.includes(`onWebviewPanel:${TIMELINE_VIEW_TYPE}`));
    assert.match(manifest.scripts['test:webview'] ?? '', /test\/webview/);
  });
});
