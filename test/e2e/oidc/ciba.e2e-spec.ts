import { randomUUID } from 'node:crypto';
import * as client from 'openid-client';
import { SessionStore } from '../../../src/sessions/session.store.js';
import { useOidcFront } from '../../support/oidc-front.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

const CIBA = 'urn:openid:params:grant-type:ciba';
const PERSON_NUMBER_CLAIM = 'https://id.oidc.se/claim/personalIdentityNumber';
const SIGN_SCOPE = 'https://id.oidc.se/scope/sign';
const SIGNATURE_CLAIM = 'https://id.oidc.se/claim/userSignature';

describe('CIBA on the OpenID Provider (openid-client as the client, the simulator phone answering)', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  const { e2e, issuer, member, confidentialClient } = useOidcFront({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  afterAll(async () => {
    await receiver?.close();
  });

  const cibaClient = (body: Record<string, unknown> = { backchannelTokenDeliveryMode: 'poll' }) =>
    confidentialClient({ name: 'Call centre', ...body });

  const answerPhone = async (personalNumber: string, action: 'approve' | 'decline' = 'approve') => {
    const answered = await e2e.http.post('/api/v1/simulator/phone').send({ personalNumber, action }).expect(200);
    return answered.body as { operation: string; userVisibleData?: string };
  };

  /** One token request, as a poll would make it, with the OAuth error it gets. */
  const tokenError = async (config: client.Configuration, authReqId: string) => {
    const error = await client.genericGrantRequest(config, CIBA, { auth_req_id: authReqId }).then(
      () => undefined,
      (thrown: unknown) => thrown as client.ResponseBodyError,
    );
    return { error: error?.error, description: error?.error_description };
  };

  const pollOptions = () => ({ signal: AbortSignal.timeout(20_000) });

  it('should identify the person on the phone in poll mode: pending with the hintCode, slow_down, then the tokens', async () => {
    const { registered, config } = await cibaClient();
    expect(config.serverMetadata().backchannel_authentication_endpoint).toBe(`${issuer()}/backchannel`);
    const started = await client.initiateBackchannelAuthentication(config, {
      scope: `openid profile https://id.oidc.se/scope/naturalPersonNumber eidgw:result`,
      login_hint: '199001011239',
      acr_values: 'urn:eidgw:simulator',
      binding_message: 'Kundtjänst: ärende 4711',
    });
    expect(started.interval).toBe(2);

    const pending = await tokenError(config, started.auth_req_id);
    expect(pending.error).toBe('authorization_pending');
    expect(pending.description).toMatch(/hintCode: (outstandingTransaction|userCallConfirm)/);
    // At once again: faster than the interval.
    expect((await tokenError(config, started.auth_req_id)).error).toBe('slow_down');

    const shown = await answerPhone('199001011239');
    expect(shown).toMatchObject({ operation: 'auth', userVisibleData: 'Kundtjänst: ärende 4711' });
    const tokens = await client.pollBackchannelAuthenticationGrant(config, started, undefined, pollOptions());
    expect(tokens.claims()).toMatchObject({
      iss: issuer(),
      aud: registered.clientId,
      acr: 'urn:eidgw:simulator',
      amr: ['simulator'],
      given_name: 'Tess',
      [PERSON_NUMBER_CLAIM]: '199001011239',
    });
    // Pairwise by default: never the personal number.
    expect(tokens.claims()!.sub).not.toContain('199001011239');
    const info = await client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
    expect(info[PERSON_NUMBER_CLAIM]).toBe('199001011239');

    // An ordinary phone session of the team, tagged with the client (txn is the session id).
    const session = await e2e.app.get(SessionStore).getById(tokens.claims()!.txn as string);
    expect(session).toMatchObject({
      channel: 'phone',
      operation: 'auth',
      teamId: e2e.team.id,
      metadata: { oidcClientId: registered.clientId },
    });
  });

  it('should answer access_denied naming userDeclinedCall when the person declines the call', async () => {
    const { config } = await cibaClient();
    const started = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid',
      login_hint: 'sub:ssn:198112289874',
      acr_values: 'urn:eidgw:simulator',
    });
    await answerPhone('198112289874', 'decline');
    const refused = await client.pollBackchannelAuthenticationGrant(config, started, undefined, pollOptions()).then(
      () => undefined,
      (thrown: unknown) => thrown as client.ResponseBodyError,
    );
    expect(refused?.error).toBe('access_denied');
    expect(refused?.error_description).toContain('userDeclinedCall');
  });

  it('should honour requested_expiry and answer expired_token after it', async () => {
    const { config } = await cibaClient();
    const started = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid',
      login_hint: '199001011239',
      acr_values: 'urn:eidgw:simulator',
      requested_expiry: '2',
    });
    expect(started.expires_in).toBe(2);
    // Capped at the session's lifetime whatever is asked.
    const capped = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid',
      login_hint: '199001011239',
      acr_values: 'urn:eidgw:simulator',
      requested_expiry: '86400',
    });
    expect(capped.expires_in).toBeLessThanOrEqual(180);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect((await tokenError(config, started.auth_req_id)).error).toBe('expired_token');
  });

  it('should ping the client with its bearer token through the webhook sender, then issue the tokens', async () => {
    const { config } = await cibaClient({
      backchannelTokenDeliveryMode: 'ping',
      backchannelClientNotificationEndpoint: receiver.url('/ciba/ping'),
    });
    const notificationToken = randomUUID();
    const started = await client.initiateBackchannelAuthentication(config, {
      scope: 'openid',
      login_hint: '199001011239',
      acr_values: 'urn:eidgw:simulator',
      client_notification_token: notificationToken,
    });
    const before = receiver.requests.length;
    await answerPhone('199001011239');
    // Nobody polls: the background collector ends the session and the ping follows.
    const received = await receiver.waitForRequests(before + 1, 20_000);
    const ping = received[before];
    expect(ping.path).toBe('/ciba/ping');
    expect(ping.headers.authorization).toBe(`Bearer ${notificationToken}`);
    expect(JSON.parse(ping.body)).toEqual({ auth_req_id: started.auth_req_id });
    const tokens = await client.genericGrantRequest(config, CIBA, { auth_req_id: started.auth_req_id });
    expect(tokens.claims()).toMatchObject({ acr: 'urn:eidgw:simulator' });
  });

  it('should sign a text of 1,500 characters over CIBA with the signature in the id token', async () => {
    const { config } = await cibaClient();
    const text = 'Jag godkänner avtalet. '.repeat(70).slice(0, 1500);
    expect([...text]).toHaveLength(1500);
    const started = await client.initiateBackchannelAuthentication(config, {
      scope: `openid ${SIGN_SCOPE}`,
      login_hint: '199001011239',
      acr_values: 'urn:eidgw:simulator',
      binding_message: text,
    });
    const shown = await answerPhone('199001011239');
    expect(shown).toMatchObject({ operation: 'sign', userVisibleData: text });
    const tokens = await client.pollBackchannelAuthenticationGrant(config, started, undefined, pollOptions());
    const signature = tokens.claims()![SIGNATURE_CLAIM];
    expect(typeof signature).toBe('string');
    expect(Buffer.from(signature as string, 'base64').toString('utf8')).toContain('<Signature');
  });

  it('should refuse a binding message over 1,500 characters, a login_hint that is not a personal number, and a public client', async () => {
    const { config } = await cibaClient();
    const refusal = (params: Record<string, string>) =>
      client.initiateBackchannelAuthentication(config, { scope: 'openid', acr_values: 'urn:eidgw:simulator', ...params }).then(
        () => undefined,
        (thrown: unknown) => (thrown as client.ResponseBodyError).error,
      );
    expect(await refusal({ login_hint: '199001011239', binding_message: 'x'.repeat(1501) })).toBe('invalid_binding_message');
    expect(await refusal({ login_hint: '199001011238' })).toBe('invalid_request');
    expect(await refusal({ login_hint: 'someone@example.com' })).toBe('invalid_request');
    await e2e.http
      .post('/api/v1/oidc-clients')
      .set('authorization', (await member()).bearer)
      .send({
        name: 'SPA',
        redirectUris: [`${e2e.baseUrl}/rp/callback`],
        tokenEndpointAuthMethod: 'none',
        backchannelTokenDeliveryMode: 'poll',
      })
      .expect(400);
  });
});
