import { decodeJwt } from 'jose';
import type Provider from 'oidc-provider';
import { DataSource } from 'typeorm';
import { DataCipher } from '../../../src/common/crypto/data-cipher.js';
import { personSubject } from '../../../src/oidc/library/oidc-claims.js';
import { OidcClientsService } from '../../../src/oidc/clients/oidc-clients.service.js';
import { saveLoginGrant } from '../../../src/oidc/library/oidc-login-grant.js';
import type { StoredAccount } from '../../../src/oidc/login/oidc-login-records.js';
import { OidcModelStore } from '../../../src/oidc/library/oidc-model.store.js';
import { OidcProviderService } from '../../../src/oidc/library/oidc-provider.service.js';
import { useE2eApp } from '../../support/e2e.js';

const REDIRECT_URI = 'https://rp.example/callback';
const SCOPE = 'openid profile https://id.oidc.se/scope/naturalPersonNumber eidgw:result';
const HOUR = 3600;

/** docs/oidc.md ("State"): a grant carries what its login proved; grants written before read it from its own record. */
describe("The login's account in its grant", () => {
  const e2e = useE2eApp({ withKey: true, env: { SESSION_PII_RETENTION: '3d' } });
  let client: { clientId: string; clientSecret: string };
  let provider: Provider;
  beforeAll(async () => {
    const created = await e2e.app.get(OidcClientsService).create(e2e.team.id, { name: 'RP', redirectUris: [REDIRECT_URI] });
    client = { clientId: created.clientId, clientSecret: created.clientSecret! };
    provider = await e2e.app.get(OidcProviderService).provider();
  });

  // The person's subject at this (public) client: the provider refuses a grant whose accountId is not it.
  const personAtClient = () => personSubject(e2e.app.get(OidcProviderService).personSubjectKey, 'test', '198001019802');
  const accountOf = (subject: string): StoredAccount => ({
    clientId: client.clientId,
    subject,
    user: { name: 'Anna Andersson', givenName: 'Anna', surname: 'Andersson', personalNumber: '198001019802' },
    txn: 'txn-1',
    resultToken: 'result-1',
    acr: 'urn:eidgw:simulator',
    personalNumberClaim: 'ssn',
  });
  /** A grant as the code before this change wrote it: no account inside, the account in its own record. */
  const legacyGrant = async (subject: string, withRecord: boolean) => {
    const grant = new provider.Grant({ accountId: subject, clientId: client.clientId });
    grant.addOIDCScope(SCOPE);
    const grantId = await grant.save();
    if (withRecord) {
      await e2e.app.get(OidcModelStore).upsert({
        model: 'EidgwAccount',
        id: grantId,
        payloadEnc: e2e.app.get(DataCipher).encryptJson(accountOf(subject), `oidc_models:EidgwAccount:${grantId}`),
        grantId,
        uid: null,
        userCode: null,
        expiresAt: new Date(Date.now() + HOUR * 1000),
      });
    }
    return grantId;
  };
  /** A code of the grant, as the provider issues one when the login ends. */
  const codeOf = async (grantId: string, subject: string) => {
    const code = new provider.AuthorizationCode({
      accountId: subject,
      client: (await provider.Client.find(client.clientId))!,
      grantId,
      scope: SCOPE,
      redirectUri: REDIRECT_URI,
      acr: 'urn:eidgw:simulator',
      amr: ['simulator'],
      authTime: Math.floor(Date.now() / 1000),
    } as unknown as ConstructorParameters<Provider['AuthorizationCode']>[0]);
    return code.save();
  };
  const exchange = async (grantId: string, subject: string) =>
    e2e.http
      .post('/oidc/token')
      .auth(client.clientId, client.clientSecret)
      .type('form')
      .send({ grant_type: 'authorization_code', code: await codeOf(grantId, subject), redirect_uri: REDIRECT_URI });
  const userinfo = (accessToken: string) => e2e.http.get('/oidc/me').set('authorization', `Bearer ${accessToken}`);
  /** The person's claims of the id token and of userinfo (without the token's own: iat, exp, nonce, at_hash…). */
  const claimsOf = async (grantId: string, subject: string) => {
    const tokens = await exchange(grantId, subject);
    expect(tokens.status).toBe(200);
    const { iat: _iat, exp: _exp, auth_time: _authTime, at_hash: _atHash, ...idToken } = decodeJwt(tokens.body.id_token as string);
    const info = await userinfo(tokens.body.access_token as string).expect(200);
    return { idToken, userinfo: info.body as Record<string, unknown>, accessToken: tokens.body.access_token as string };
  };
  const rowOf = async (model: string, id: string) => {
    const [row]: { payload_enc: Buffer; expires_at: Date }[] = await e2e.app
      .get(DataSource)
      .query('SELECT payload_enc, expires_at FROM oidc_models WHERE model = $1 AND id = $2', [model, id]);
    return row;
  };

  it('should keep the claims in the grant, encrypted, with no record beside it, for the hour of the login', async () => {
    const subject = personAtClient();
    const grant = await saveLoginGrant(provider, { scope: SCOPE, account: accountOf(subject) });
    const row = await rowOf('Grant', grant.jti);
    expect(row.payload_enc.toString('latin1')).not.toMatch(/Andersson|198001019802/);
    expect(Math.round((row.expires_at.getTime() - Date.now()) / 1000)).toBeGreaterThan(HOUR - 60);
    expect(Math.round((row.expires_at.getTime() - Date.now()) / 1000)).toBeLessThanOrEqual(HOUR);
    expect(await rowOf('EidgwAccount', grant.jti)).toBeUndefined();

    const { idToken, userinfo: info } = await claimsOf(grant.jti, subject);
    const person = {
      sub: expect.any(String),
      name: 'Anna Andersson',
      given_name: 'Anna',
      family_name: 'Andersson',
      birthdate: '1980-01-01',
      'https://id.oidc.se/claim/personalIdentityNumber': '198001019802',
      ssn: '198001019802',
      txn: 'txn-1',
      eidgw_result: 'result-1',
    };
    expect(idToken).toMatchObject({ ...person, acr: 'urn:eidgw:simulator', amr: ['simulator'] });
    expect(info).toEqual(person);
  });

  it('should erase the grant, and the claims in it, when a token of the login is revoked', async () => {
    const subject = personAtClient();
    const grant = await saveLoginGrant(provider, { scope: SCOPE, account: accountOf(subject) });
    const { accessToken } = await claimsOf(grant.jti, subject);
    await e2e.http
      .post('/oidc/token/revocation')
      .auth(client.clientId, client.clientSecret)
      .type('form')
      .send({ token: accessToken, token_type_hint: 'access_token' })
      .expect(200);
    expect(await rowOf('Grant', grant.jti)).toBeUndefined();
  });

  it('should keep a grant with offline_access as long as its refresh token, never past SESSION_PII_RETENTION (3 days here)', async () => {
    const grant = await saveLoginGrant(provider, { scope: `${SCOPE} offline_access`, account: accountOf(personAtClient()) });
    const row = await rowOf('Grant', grant.jti);
    expect(Math.round((row.expires_at.getTime() - Date.now()) / 1000 / HOUR)).toBe(3 * 24);
  });

  it('should give a grant written before the change the same claims from its own record', async () => {
    const subject = personAtClient();
    const current = await claimsOf((await saveLoginGrant(provider, { scope: SCOPE, account: accountOf(subject) })).jti, subject);
    const legacyGrantId = await legacyGrant(subject, true);
    const legacy = await claimsOf(legacyGrantId, subject);
    expect(legacy.idToken).toEqual({ ...current.idToken, jti: legacy.idToken.jti });
    expect(legacy.userinfo).toEqual(current.userinfo);

    // Its record gone (expired), userinfo refuses the token as it did before.
    await e2e.app.get(OidcModelStore).destroy('EidgwAccount', legacyGrantId);
    const refused = await userinfo(legacy.accessToken).expect(401);
    expect(refused.body).toMatchObject({ error: 'invalid_token' });
  });

  it('should refuse a code whose grant carries no account and has no record', async () => {
    const subject = personAtClient();
    const refused = await exchange(await legacyGrant(subject, false), subject);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'invalid_grant' });
  });
});
