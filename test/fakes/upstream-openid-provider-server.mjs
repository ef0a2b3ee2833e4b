// A local OpenID Provider (oidc-provider) playing an upstream e-ID, in its own process: oidc-provider
// checks its metadata with `constructor === Object`, which objects crossing jest's realms fail.
// Profiles: Norwegian BankID (acr urn:bankid:bid, an nnin claim, private_key_jwt, PAR), an FTN broker
// (signed request objects required, id tokens encrypted to the client), a Swedish broker (the Swedish
// OIDC claims, with the organisation's), a MitID Erhverv broker (the company's VAT id,
// the employee). With `ciba`, it takes backchannel requests (CIBA Core, poll mode) for its person, by
// the national identifier as login_hint: the first token request of each answers slow_down, the rest
// authorization_pending until the test approves, denies or expires it. Options come as JSON in
// FAKE_UPSTREAM; the issuer is printed as "ISSUER <url>".
import { createServer } from 'node:http';
import process from 'node:process';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose';
import Provider, { errors } from 'oidc-provider';

const options = JSON.parse(process.env.FAKE_UPSTREAM);
const PERSON = {
  name: 'Kari Nordmann',
  given_name: 'Kari',
  family_name: 'Nordmann',
  birthdate: '1970-01-01',
  nnin: '01017012345',
  hetu: '010170-900X',
  'https://id.oidc.se/claim/personalIdentityNumber': '197001019876',
  // The Swedish profile's person of an organisation (se-broker).
  'https://id.oidc.se/claim/orgNumber': '5567321707',
  'https://id.oidc.se/claim/orgName': 'Nordisk Handel AB',
  'https://id.oidc.se/claim/orgAffiliation': '197001019876@5567321707',
  // A MitID Erhverv broker's: the company by its VAT id, the employee, and whether they may sign for it.
  dk_cpr: '0101701234',
  vatid: 'DK12345678',
  company_name: 'Nordisk Handel ApS',
  employee_id: '8b2c3d6e-1111-4f00-9a00-000000000001',
  company_signatory: true,
};
const ACR = {
  nbid: 'urn:bankid:bid',
  ftn: 'http://ftn.ficora.fi/2017/loa3',
  'se-broker': 'http://id.elegnamnden.se/loa/1.0/loa3',
  mitid: 'https://data.gov.dk/concept/core/nsis/loa/Substantial',
};
const AMR = { nbid: ['bid'], ftn: ['mfa'], 'se-broker': ['mfa'], mitid: ['mitid'] };
// The claim a backchannel request's login_hint names the person by.
const IDENTIFIER = { nbid: 'nnin', ftn: 'hetu', 'se-broker': 'https://id.oidc.se/claim/personalIdentityNumber', mitid: 'dk_cpr' };
const CIBA_GRANT = 'urn:openid:params:grant-type:ciba';
const { profile } = options;
const ciba = options.ciba === true;
// The backchannel requests not yet ended, newest last; and those whose first token request came.
const backchannel = [];
const polled = new Set();
const ftn = profile === 'ftn';
let forge = false;
// An upstream that logs the person in with another method than the acr_values asked for (they are voluntary).
let weakAcr = false;

const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;
const signing = await generateKeyPair('RS256', { extractable: true });
// Not published: an id token it signs is a forgery.
const rogue = await generateKeyPair('RS256');

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: options.clientId,
      redirect_uris: [options.redirectUri],
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: options.clientKeys },
      ...(ciba ? { grant_types: ['authorization_code', CIBA_GRANT], backchannel_token_delivery_mode: 'poll' } : {}),
      ...(ftn
        ? {
            require_signed_request_object: true,
            request_object_signing_alg: 'RS256',
            id_token_encrypted_response_alg: 'RSA-OAEP-256',
            id_token_encrypted_response_enc: 'A256GCM',
          }
        : {}),
    },
  ],
  jwks: { keys: [{ ...(await exportJWK(signing.privateKey)), kid: 'op-signing', alg: 'RS256', use: 'sig' }] },
  features: {
    devInteractions: { enabled: false },
    pushedAuthorizationRequests: { enabled: profile === 'nbid', requirePushedAuthorizationRequests: false },
    requestObjects: { enabled: true },
    encryption: { enabled: ftn },
    ciba: {
      enabled: ciba,
      deliveryModes: ['poll'],
      processLoginHint: (_ctx, loginHint) => {
        if (loginHint !== PERSON[IDENTIFIER[profile]]) throw new errors.UnknownUserId('no such person');
        return 'person-1';
      },
      validateRequestContext: () => undefined,
      verifyUserCode: () => undefined,
      triggerAuthenticationDevice: (ctx, request) => {
        backchannel.push(request.jti);
        // One second between polls, so that tests wait little.
        ctx.body.interval = 1;
      },
    },
  },
  claims: {
    openid: ['sub', 'acr', 'amr', 'auth_time'],
    profile: ['name', 'given_name', 'family_name', 'birthdate'],
    nnin: ['nnin'],
    ftn: ['hetu'],
    'https://id.oidc.se/scope/naturalPersonNumber': ['https://id.oidc.se/claim/personalIdentityNumber'],
    'https://id.oidc.se/scope/naturalPersonOrgId': [
      'https://id.oidc.se/claim/orgNumber',
      'https://id.oidc.se/claim/orgName',
      'https://id.oidc.se/claim/orgAffiliation',
    ],
    mitid_erhverv: ['dk_cpr', 'vatid', 'company_name', 'employee_id', 'company_signatory'],
  },
  acrValues: [ACR[profile]],
  conformIdTokenClaims: false,
  findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ ...PERSON, sub: id }) }),
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  // Consent is the RP's contract with the broker: every scope the client asks for is granted.
  loadExistingGrant: async (ctx) => {
    const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
    grant.addOIDCScope(String(ctx.oidc.params?.scope ?? 'openid'));
    await grant.save();
    return grant;
  },
  cookies: { keys: ['fake-upstream'] },
});
for (const event of ['pushed_authorization_request.error', 'grant.error', 'authorization.error'])
  provider.on(event, (_ctx, error) => process.stderr.write(`${event}: ${error.message} ${error.error_detail ?? ''}\n`));
provider.use(async (ctx, next) => {
  await next();
  // The first token request of each backchannel request is too soon, whatever the interval said.
  const authReqId = ctx.oidc?.params?.auth_req_id;
  if (ctx.path === '/token' && ctx.body?.error === 'authorization_pending' && typeof authReqId === 'string' && !polled.has(authReqId)) {
    polled.add(authReqId);
    ctx.body = { error: 'slow_down', error_description: 'you are polling too quickly' };
  }
  if (forge && ctx.path === '/token' && ctx.body?.id_token) {
    ctx.body.id_token = await new SignJWT(decodeJwt(ctx.body.id_token))
      .setProtectedHeader({ alg: 'RS256', kid: 'op-signing', typ: 'JWT' })
      .sign(rogue.privateKey);
  }
});

async function interaction(req, res) {
  const { uid, params } = await provider.interactionDetails(req, res);
  if (req.method === 'GET') {
    // The languages the client asked for, shown back (letters, digits, hyphens and spaces only).
    const locales = String(params.ui_locales ?? '').replace(/[^\w -]/g, '');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><title>Fake ${profile}</title></head><body><p id="ui-locales">${locales}</p>
<form method="post" action="/interaction/${uid}/approve"><button id="approve">Approve</button></form>
<form method="post" action="/interaction/${uid}/deny"><button id="deny">Cancel</button></form></body></html>`);
    return;
  }
  for await (const chunk of req) void chunk;
  const result = req.url.endsWith('/approve')
    ? { login: { accountId: 'person-1', acr: weakAcr ? 'urn:example:password' : ACR[profile], amr: AMR[profile] } }
    : { error: 'access_denied', error_description: 'The person cancelled' };
  await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
}

/** Ends the oldest backchannel request still open as the person would (approve, deny) or as time would (expire). */
async function endBackchannel(action) {
  const jti = backchannel.shift();
  const request = jti && (await provider.BackchannelAuthenticationRequest.find(jti));
  if (!request) return false;
  if (action === 'deny') await provider.backchannelResult(request, new errors.AccessDenied('the person declined'));
  else if (action === 'expire') await provider.backchannelResult(request, new errors.ExpiredToken('the request expired'));
  else {
    const grant = new provider.Grant({ clientId: request.clientId, accountId: request.accountId });
    grant.addOIDCScope(request.scope);
    await grant.save();
    await provider.backchannelResult(request, grant, { acr: ACR[profile], amr: AMR[profile], authTime: Math.floor(Date.now() / 1000) });
  }
  return true;
}

const callback = provider.callback();
server.on('request', (req, res) => {
  if (req.url === '/__weak-acr/on' || req.url === '/__weak-acr/off') {
    weakAcr = req.url.endsWith('/on');
    return void res.writeHead(204).end();
  }
  if (req.url === '/__forge/on' || req.url === '/__forge/off') {
    forge = req.url.endsWith('/on');
    return void res.writeHead(204).end();
  }
  const cibaAction = /^\/__ciba\/(approve|deny|expire)$/.exec(req.url)?.[1];
  if (cibaAction) {
    endBackchannel(cibaAction).then(
      (ended) => void res.writeHead(ended ? 204 : 404).end(),
      (error) => {
        process.stderr.write(`ciba: ${error.message}\n`);
        res.writeHead(500).end();
      },
    );
    return;
  }
  if (!req.url.startsWith('/interaction/')) return void callback(req, res);
  interaction(req, res).catch((error) => {
    process.stderr.write(`interaction: ${error.message}\n`);
    res.writeHead(500).end();
  });
});
process.stdout.write(`ISSUER ${issuer}\n`);
