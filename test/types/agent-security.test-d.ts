/**
 * Type-level tests of an agent's security (runtime/a2a/security.ts `CardSecurity`, the generated
 * `createAgent`): compiled by `tsc` in `npm run typecheck`, never run. Each `@ts-expect-error` line must fail
 * to compile. A card whose securityRequirements name a scheme cannot be made into an agent without saying how
 * its requests are checked: the verifier of each scheme's kind, or an `http.authenticate` of its own.
 */
import { createAgent as createDeployer } from '../../generated/samples/deployer/index.ts';
import { createAgent as createResearcher } from '../../generated/samples/research-agent/index.ts';
import type { CardSecurity } from '../../runtime/a2a/security.ts';
import type { Authenticate } from '../../runtime/a2a/http.ts';
import { expectType, type Equal } from './equal.ts';

const executor = { execute: async () => {} };
const authenticate: Authenticate = () => ({ ok: true });

// The deployer's card requires an HTTP bearer token (schemas/samples/a2a/deployer.yaml).
createDeployer(executor, { verifiers: { bearer: (token) => token === 'secret' } });
createDeployer(executor, { verifiers: { bearer: async () => ({ scopes: ['deploy'] }) }, ids: () => 'x' });
createDeployer(executor, { http: { authenticate } });
// @ts-expect-error the card requires a bearer token: the options are required
createDeployer(executor);
// @ts-expect-error nothing that checks a bearer token
createDeployer(executor, {});
// @ts-expect-error an API key verifier does not check the card's bearer scheme
createDeployer(executor, { verifiers: { apiKey: () => true } });

// A card without security requirements: no options needed.
createResearcher(executor);
createResearcher(executor, { ids: () => 'x' });

// The kinds, read off the card's type.
const apiKeyAndOAuth = {
  securitySchemes: {
    key: { apiKeySecurityScheme: { location: 'header', name: 'X-Key' } },
    oauth: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: 'https://as.example/token', scopes: {} } } } },
  },
  securityRequirements: [{ schemes: { key: { list: [] } } }, { schemes: { oauth: { list: ['use'] } } }],
} as const;
type Both = CardSecurity<typeof apiKeyAndOAuth>;
expectType<
  Equal<Extract<Both, { verifiers: unknown }>['verifiers'], Required<Pick<import('../../runtime/a2a/security.ts').A2aVerifiers, 'apiKey' | 'bearer'>>>
>(true);
const basic = {
  securitySchemes: { basic: { httpAuthSecurityScheme: { scheme: 'Basic' } } },
  securityRequirements: [{ schemes: { basic: { list: [] } } }],
} as const;
// HTTP basic: no verifier checks it, only a check of one's own.
expectType<Equal<CardSecurity<typeof basic>, { readonly http: { readonly authenticate: Authenticate } }>>(true);
expectType<Equal<CardSecurity<{ securityRequirements: readonly [] }>, unknown>>(true);
