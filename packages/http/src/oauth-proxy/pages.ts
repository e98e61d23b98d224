/** The proxy's two HTML pages: the consent form and an error page. Every value is escaped; no script. */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const esc = (value: string): string => value.replace(/[&<>"']/g, (c) => ESCAPES[c]);

function layout(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;line-height:1.5}code{word-break:break-all}button{font-size:1rem;padding:.5rem 1.2rem;margin-right:.5rem}</style>
</head><body><h1>${esc(title)}</h1>${body}</body></html>`;
}

export interface ConsentView {
  action: string;
  txn: string;
  csrf: string;
  clientName?: string;
  clientId: string;
  redirectUri: string;
  scopes: readonly string[];
  /** What the identity provider will be asked for, and its host. */
  upstreamScopes: readonly string[];
  upstream: string;
  resource: string;
}

export function consentPage(v: ConsentView): string {
  const name = v.clientName ? `<strong>${esc(v.clientName)}</strong> (client <code>${esc(v.clientId)}</code>)` : `client <code>${esc(v.clientId)}</code>`;
  const list = (scopes: readonly string[]) => scopes.map((s) => `<code>${esc(s)}</code>`).join(', ');
  const scopes = v.scopes.length ? `<p>It asks for: ${list(v.scopes)}</p>` : '';
  const upstream = `<p>You will sign in at <code>${esc(v.upstream)}</code>, which will be asked for: ${list(v.upstreamScopes) || 'no scope'}.</p>`;
  return layout(
    'Allow access?',
    `<p>The application ${name} wants to use <code>${esc(v.resource)}</code> on your behalf.</p>
<p>After you sign in, you will be sent back to <code>${esc(v.redirectUri)}</code>. Allow only if you started this from that application and trust it.</p>
${scopes}
${upstream}
<form method="post" action="${esc(v.action)}">
<input type="hidden" name="txn" value="${esc(v.txn)}">
<input type="hidden" name="csrf" value="${esc(v.csrf)}">
<button type="submit" name="decision" value="approve">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  );
}

export function errorPage(title: string, message: string): string {
  return layout(title, `<p>${esc(message)}</p>`);
}
