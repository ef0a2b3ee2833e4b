import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from '../../src/app.module.js';
import { configureApp, createFastifyAdapter } from '../../src/app.setup.js';
import { validatedEnv } from '../../src/config/env.validation.js';
import { OIDC_TTL } from '../../src/oidc/oidc-configuration.js';
import { OidcLoginRecords } from '../../src/oidc/oidc-login-records.js';
import { OidcProviderService } from '../../src/oidc/oidc-provider.service.js';
import { CODE_CHALLENGE, type CodeInit, inBatches, REDIRECT_URI, SCOPE, serveMints } from './mint.js';

/**
 * The service as src/main.ts starts it (one process), plus the bench's way to finish logins without an
 * e-ID: a grant, the login's account record and a code, written as OidcInteractionsService.done writes
 * them. Minting happens between measurements; only the HTTP requests are measured.
 */
const env = validatedEnv();
const app = await NestFactory.create<NestFastifyApplication>(AppModule, createFastifyAdapter(env), { bufferLogs: true });
await configureApp(app, { shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT });
await app.listen({ port: env.PORT, host: '127.0.0.1' });

const oidc = app.get(OidcProviderService);
const records = app.get(OidcLoginRecords);
const clientId = process.env.BENCH_CLIENT_ID!;

serveMints(async (count) => {
  const provider = await oidc.provider();
  const client = (await provider.Client.find(clientId))!;
  return inBatches(count, 10, async () => {
    const accountId = randomUUID();
    const grant = new provider.Grant({ accountId, clientId });
    grant.addOIDCScope(SCOPE);
    const grantId = await grant.save();
    await records.saveAccount(
      grantId,
      {
        clientId,
        subject: accountId,
        user: { name: 'Anna Andersson', givenName: 'Anna', surname: 'Andersson', birthdate: '1980-01-01' },
        txn: randomUUID(),
        acr: 'urn:eidgw:simulator',
        personalNumberClaim: null,
      },
      OIDC_TTL.Session,
    );
    const authTime = Math.floor(Date.now() / 1000);
    // @types/oidc-provider still requires v8's `gty`, which v9 no longer has.
    const code = new provider.AuthorizationCode({
      accountId,
      client,
      grantId,
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
