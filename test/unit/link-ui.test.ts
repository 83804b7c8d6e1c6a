// The Link page's browser bundles: the committed module is what the browser code builds to, and the
// server inlines the scripts only under the response's CSP nonce.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildBundles, renderBundlesModule } from '../../bin/build-link-ui';
import { LINK_APP_SCRIPT, LINK_ERROR_PAGE_SCRIPT, LINK_SDK_SCRIPT } from '../../functions/platform/link-ui/generated/bundles';
import { renderErrorPage, renderFlowPage, type LinkPageSession, type RenderedPage } from '../../functions/platform/link-ui/page';
import { isSdkCloseMessage } from '../../functions/platform/link-ui/protocol';

const SESSION: LinkPageSession = {
  link_session_id: 'lnk_test',
  client_name: 'Acme Budget',
  products: ['transactions'],
  mode: 'create',
  environment: 'test',
  language: 'en',
  institution: null,
  redirect_uri: null,
  expiration: '2030-01-01T00:00:00.000Z',
};

/** The executable (non-JSON) script elements of a page, with their nonce and body. */
function executableScripts(html: string): Array<{ nonce: string | null; body: string }> {
  return [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attrs]) => !attrs!.includes('type="application/json"'))
    .map(([, attrs, body]) => ({ nonce: /nonce="([^"]+)"/.exec(attrs!)?.[1] ?? null, body: body! }));
}

function cspNonce(page: RenderedPage): string {
  const match = /script-src 'nonce-([^']+)'/.exec(page.headers['Content-Security-Policy']!);
  if (!match) throw new Error('no script nonce in the CSP');
  return match[1]!;
}

describe('Link UI bundles', () => {
  it('are exactly what the browser code builds to (run `npm run build:link-ui` when this fails)', () => {
    const committed = readFileSync(join(__dirname, '..', '..', 'functions/platform/link-ui/generated/bundles.ts'), 'utf8');
    expect(committed).toBe(renderBundlesModule(buildBundles()));
  });

  it('carry the contract data they use, and no zod', () => {
    // Labels and fatal codes come from the browser code's contract-typed tables.
    expect(LINK_APP_SCRIPT).toContain('recurring payments');
    expect(LINK_APP_SCRIPT).toContain('too_many_attempts');
    for (const script of [LINK_APP_SCRIPT, LINK_ERROR_PAGE_SCRIPT, LINK_SDK_SCRIPT]) expect(script).not.toMatch(/zod|ZodError/);
    expect(LINK_SDK_SCRIPT.startsWith('/*! Fincore Link SDK v1 */')).toBe(true);
  });

  it('run on the flow page only under the response nonce', () => {
    const page = renderFlowPage({ token: 'fc_link_abc', session: SESSION, embed: { embed: false } });
    expect(executableScripts(page.body)).toEqual([{ nonce: cspNonce(page), body: LINK_APP_SCRIPT }]);
  });

  it('give the error page a script only inside the SDK modal, under the response nonce', () => {
    const standalone = renderErrorPage({ problem: 'link_token_expired', requestId: 'req_1', baseUrl: 'https://api.example', embed: { embed: false } });
    expect(executableScripts(standalone.body)).toEqual([]);
    const embedded = renderErrorPage({ problem: 'link_token_expired', requestId: 'req_1', baseUrl: 'https://api.example', embed: { embed: true, parentOrigin: 'https://app.example' } });
    expect(executableScripts(embedded.body)).toEqual([{ nonce: cspNonce(embedded), body: LINK_ERROR_PAGE_SCRIPT }]);
  });

  it('hand onExit the error as the API envelope describes it: its documentation entry and end-user sentence', () => {
    const embedded = renderErrorPage({ problem: 'link_token_expired', requestId: 'req_1', baseUrl: 'https://api.example/prod', embed: { embed: true, parentOrigin: 'https://app.example' } });
    const config = JSON.parse(/<script type="application\/json" id="fc-link-error">([^<]*)<\/script>/.exec(embedded.body)![1]) as { error: Record<string, unknown> };
    expect(config.error).toMatchObject({ code: 'link_token_expired', request_id: 'req_1', documentation_url: 'https://api.example/prod/docs/errors#link_token_expired' });
    expect(typeof config.error.display_message === 'string' || config.error.display_message === null).toBe(true);
    const invalidEmbed = renderErrorPage({ problem: 'invalid_embed', requestId: 'req_2', baseUrl: 'https://api.example', embed: { embed: true, parentOrigin: 'https://app.example' } });
    const invalidConfig = JSON.parse(/<script type="application\/json" id="fc-link-error">([^<]*)<\/script>/.exec(invalidEmbed.body)![1]) as { error: Record<string, unknown> };
    expect(invalidConfig.error).toMatchObject({ code: 'invalid_embed', documentation_url: null, display_message: null });
  });
});

describe('isSdkCloseMessage', () => {
  it('accepts only the SDK close message', () => {
    expect(isSdkCloseMessage({ source: 'fincore-link-sdk', type: 'close' })).toBe(true);
    for (const data of [null, 'close', { source: 'fincore-link', type: 'close' }, { source: 'fincore-link-sdk', type: 'open' }]) {
      expect(isSdkCloseMessage(data)).toBe(false);
    }
  });
});
