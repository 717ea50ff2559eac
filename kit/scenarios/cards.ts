/**
 * @module kit/scenarios/cards — scenario 17, canonicalizing, signing and verifying the deployer card
 * (17-signed-card.txt: the canonical bytes, the JWS, the JWKS, the verification, and a tampered card that
 * fails); scenario 18, GetExtendedAgentCard without and with a token.
 */
import type { AgentCard } from '../../runtime/a2a/types.ts';
import { JWKS_PATH, WRITTEN } from '../network.ts';
import { CaptureError, expectError, expectStatus, type Scenario } from '../session.ts';
import { canonicalCard, DEMO_KEY_SEED, verifyCard, type Jwks } from '../signing.ts';

/** The first index at which two texts differ. */
function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i;
}

/** A card with its members in reverse order at every level: the same JSON object, other bytes. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reordered(v)]),
  );
}

export const signedCard: Scenario = {
  base: '17-signed-card',
  summary: 'canonicalizing, signing, and verifying the deployer card',
  async run(s) {
    const cardUrl = `${WRITTEN.deployer}/.well-known/agent-card.json`;
    const card = (await (await s.net.fetch(cardUrl)).json()) as AgentCard;
    const jwks = (await (await s.net.fetch(WRITTEN.deployer + JWKS_PATH)).json()) as Jwks;
    const steps = s.net.signature;
    const canonical = canonicalCard(card);
    if (canonical !== steps.canonical) throw new CaptureError('the served card does not canonicalize to the bytes that were signed');
    const check = (c: AgentCard) => verifyCard(c, jwks);
    const served = check(card);
    const tampered = structuredClone(card);
    tampered.supportedInterfaces[0]!.url = 'http://attacker.example/jsonrpc';
    const forged = check(tampered);
    const shuffled = reordered(card) as AgentCard;
    const same = check(shuffled);
    if (!served.ok || forged.ok || !same.ok) throw new CaptureError('the signature checks did not come out as expected');
    const verdict = (v: { ok: boolean; lines: readonly string[] }) => [`result: ${v.ok ? 'VALID' : 'INVALID'}`, ...v.lines.map((l) => `  ${l}`)];
    const at = firstDifference(canonical, canonicalCard(tampered));
    const lines = [
      '# 17-signed-card.txt: canonicalizing, signing, and verifying the deployer card (A2A §8.4).',
      '# Written by `npm run a2a-kit`; kit/README.md describes it. Do not edit.',
      '#',
      '# DEMO KEY: the Ed25519 private key is SHA-256 of a public text in kit/signing.ts:',
      `#   ${DEMO_KEY_SEED}`,
      '# Anyone can recompute it. It shows the mechanics and proves nothing; a real agent keeps its key secret.',
      '',
      `## 1. The card, as served at ${cardUrl}, without \`signatures\`, canonicalized (RFC 8785), ${Buffer.byteLength(canonical)} bytes`,
      '',
      canonical,
      '',
      '## 2. The JWS protected header (RFC 7515), then its base64url',
      '',
      JSON.stringify(steps.header),
      steps.protected,
      '',
      '## 3. The payload: the canonical bytes, base64url. The signing input is `<protected>.<payload>`',
      '',
      steps.payload,
      '',
      '## 4. The signature: Ed25519 over the signing input (EdDSA, RFC 8037; deterministic), base64url',
      '',
      steps.signature,
      '',
      "## 5. The card's `signatures`, as served",
      '',
      JSON.stringify(card.signatures, null, 2),
      '',
      `## 6. The public key, from the header's jku (${WRITTEN.deployer}${JWKS_PATH})`,
      '',
      JSON.stringify(jwks, null, 2),
      '',
      '## 7. Verifying the card as served (§8.4.3: drop `signatures`, canonicalize, check against the key named by kid)',
      '',
      ...verdict(served),
      '',
      '## 8. The same card with the members of every object in reverse order: the same canonical bytes, so still valid',
      '',
      ...verdict(same),
      '',
      '## 9. A tampered card: supportedInterfaces[0].url changed to http://attacker.example/jsonrpc after signing',
      '',
      `The canonical bytes differ from byte ${at} on:`,
      `  signed:   …${canonical.slice(Math.max(0, at - 20), at + 40)}…`,
      `  tampered: …${canonicalCard(tampered).slice(Math.max(0, at - 20), at + 40)}…`,
      ...verdict(forged),
    ];
    s.write('17-signed-card.txt', `${lines.join('\n')}\n`);
  },
};

export const extendedCard: Scenario = {
  base: '18-extended-card',
  summary: 'GetExtendedAgentCard without and with a token',
  async run(s) {
    const rpc = { jsonrpc: '2.0', id: 1, method: 'GetExtendedAgentCard', params: {} };
    const headers = { 'a2a-version': '1.0', 'content-type': 'application/json' };
    s.rec.step(
      'GetExtendedAgentCard without a token',
      "Authentication runs in front of the protocol: HTTP 401 with a challenge, before any A2A method runs (the kit's choice).",
    );
    expectStatus(await s.raw('deployer', '/jsonrpc', { headers, body: rpc }), 401);
    s.rec.step('GetExtendedAgentCard with a wrong token', 'The challenge says why (RFC 6750: invalid_token).');
    expectStatus(await s.raw('deployer', '/jsonrpc', { headers: { ...headers, authorization: 'Bearer not-the-token' }, body: rpc }), 401);
    s.rec.step('GetExtendedAgentCard with the token', 'The extended card: one more skill, for token holders only.');
    await s.client('deployer').getExtendedAgentCard();
    s.rec.step('HTTP+JSON: GET /extendedAgentCard with the token');
    await s.client('deployer', 'rest').getExtendedAgentCard();
    s.rec.step('HTTP+JSON: GET /extendedAgentCard without a token', 'The same 401 in front of the HTTP+JSON binding.');
    expectStatus(await s.raw('deployer', '/rest/extendedAgentCard', { headers: { 'a2a-version': '1.0' } }), 401);
    s.rec.step('the test runner has no extended card', 'Its card does not declare extendedAgentCard: UnsupportedOperationError, -32004 (§3.3.4).');
    await expectError(s.client('test-runner').getExtendedAgentCard(), -32004);
  },
};
