import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from '../../src/app.module.js';
import { configureApp, createFastifyAdapter } from '../../src/app.setup.js';
import { validatedEnv } from '../../src/app.env.js';
import { personSubject } from '../../src/oidc/library/oidc-claims.js';
import { saveLoginGrant } from '../../src/oidc/library/oidc-login-grant.js';
import { OidcProviderService } from '../../src/oidc/library/oidc-provider.service.js';
import { CODE_CHALLENGE, type CodeInit, inBatches, REDIRECT_URI, SCOPE, serveMints } from './mint.js';

/**
 * The service as src/main.ts starts it (one process), plus the bench's way to finish logins without an
 * e-ID: a grant carrying the login's account (saveLoginGrant, as OidcInteractionsService.done writes
 * it) and a code. Minting happens between measurements; only the HTTP requests are measured.
 */
const env = validatedEnv();
const app = await NestFactory.create<NestFastifyApplication>(AppModule, createFastifyAdapter(env), { bufferLogs: true });
await configureApp(app, { shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT });
await app.listen({ port: env.PORT, host: '127.0.0.1' });

const oidc = app.get(OidcProviderService);
const PERSON = '198001019802';
const clientId = process.env.BENCH_CLIENT_ID!;

serveMints(async (count) => {
  const provider = await oidc.provider();
  const client = (await provider.Client.find(clientId))!;
  return inBatches(count, 10, async () => {
    // The person's subject at the client: the provider refuses a grant whose accountId is not the login's person.
    const accountId = personSubject(oidc.personSubjectKey, String(client.metadata().eidgw_environment), PERSON);
    // The same code as OidcInteractionsService.done: a grant carrying the login's account.
    const grant = await saveLoginGrant(provider, {
      scope: SCOPE,
      account: {
        clientId,
        subject: accountId,
        user: { name: 'Anna Andersson', givenName: 'Anna', surname: 'Andersson', birthdate: '1980-01-01', personalNumber: PERSON },
        txn: randomUUID(),
        acr: 'urn:eidgw:simulator',
        personalNumberClaim: null,
      },
    });
    const authTime = Math.floor(Date.now() / 1000);
    // @types/oidc-provider still requires v8's `gty`, which v9 no longer has.
    const code = new provider.AuthorizationCode({
      accountId,
      client,
      grantId: grant.jti,
      scope: SCOPE,
      redirectUri: REDIRECT_URI,
      codeChallenge: CODE_CHALLENGE,
      codeChallengeMethod: 'S256',
      acr: 'urn:eidgw:simulator',
      amr: ['simulator'],
      authTime,
    } as unknown as CodeInit);
    return code.save();
  });
});
