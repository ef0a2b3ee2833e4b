import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { problemsOf } from '../../../test/support/env-problems.js';
import { FakeSuomiFi } from '../../../test/fakes/suomifi-idp.js';
import { createSamlPki, type SamlPki } from '../../../test/support/saml-sp.js';
import { parseSamlUpstreams } from './upstream-saml.env.js';

describe(parseSamlUpstreams.name, () => {
  let pki: SamlPki;
  let suomifi: Record<string, unknown>;
  beforeAll(async () => {
    pki = await createSamlPki();
    const metadata = new FakeSuomiFi(pki.idp, pki.stranger).metadata();
    writeFileSync(join(pki.dir, 'idp.xml'), metadata);
    writeFileSync(
      join(pki.dir, 'unsigned-requests.xml'),
      metadata.replace('WantAuthnRequestsSigned="true"', 'WantAuthnRequestsSigned="false"'),
    );
    writeFileSync(join(pki.dir, 'dtd.xml'), `<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>${metadata}`);
    suomifi = {
      name: 'suomifi',
      environment: 'test',
      metadata: join(pki.dir, 'idp.xml'),
      spPrivateKey: pki.sp.keyPath,
      spCertificate: pki.sp.certPath,
      attributes: { nationalId: 'urn:oid:1.2.246.21' },
      country: 'FI',
    };
  }, 30_000);
  afterAll(() => pki?.remove());

  const parse = (entries: unknown[]) => parseSamlUpstreams(JSON.stringify(entries));
  const startProblems = (entries: unknown[], env: NodeJS.ProcessEnv = {}): string[] => {
    const file = join(pki.dir, `upstreams-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(entries));
    return problemsOf({ ...env, SAML_UPSTREAMS: file });
  };

  it("should read a valid upstream: the IdP's entityID and Redirect SSO from its metadata, the framework's cancel by default", () => {
    const [upstream] = parse([suomifi]);
    expect(upstream).toMatchObject({
      name: 'suomifi',
      idpEntityId: 'https://testi.apro.tunnistus.fi/idp1',
      ssoUrl: 'https://testi.apro.tunnistus.fi/idp/profile/SAML2/Redirect/SSO',
      encryptedAssertions: false,
      cancelStatusCodes: ['http://id.elegnamnden.se/status/1.0/cancel'],
    });
    expect(upstream.spPrivateKey).toContain('PRIVATE KEY');
  });

  it.each([
    [{ metadata: '/nonexistent.xml' }, 'field metadata is not a readable SAML metadata file'],
    [{ attributes: { givenName: 'urn:oid:2.5.4.42' } }, 'field attributes: must name a personalNumber or a nationalId attribute'],
    [{ name: 'saml' }, 'field name: is taken by another provider'],
    [{ samlAuthnContexts: ['http://id.elegnamnden.se/loa/1.0/loa3'] }, 'field samlAuthnContexts: needs frontAcrValues too'],
    [{ country: 'Finland' }, 'field country: must be an ISO 3166-1 alpha-2 code'],
  ])('should refuse %j naming the field', (change, problem) => {
    expect(() => parse([{ ...suomifi, ...change }])).toThrow(problem);
  });

  it('should refuse metadata with a DTD, and an IdP that does not want signed AuthnRequests (ours always are)', () => {
    expect(() => parse([{ ...suomifi, metadata: join(pki.dir, 'dtd.xml') }])).toThrow('without a DTD');
    expect(() => parse([{ ...suomifi, metadata: join(pki.dir, 'unsigned-requests.xml') }])).toThrow('WantAuthnRequestsSigned="true"');
  });

  it('should refuse an SP certificate of another key, and a name used twice', () => {
    expect(() => parse([{ ...suomifi, spCertificate: pki.stranger.certPath }])).toThrow('field spCertificate: does not match spPrivateKey');
    expect(() => parse([suomifi, suomifi])).toThrow('upstream "suomifi", field name: is used twice');
  });

  it('should stop the start on a bad file, naming the variable, and on a name an OIDC upstream has too', () => {
    expect(startProblems([{ ...suomifi, country: 'fi' }])).toEqual([expect.stringMatching(/^SAML_UPSTREAMS .*field country/)]);
    expect(startProblems([suomifi])).toEqual([]);
    const oidc = join(pki.dir, 'oidc.json');
    const oidcUpstream = { name: 'suomifi', issuer: 'https://op.example', environment: 'test', clientId: 'x' };
    writeFileSync(
      oidc,
      JSON.stringify([{ ...oidcUpstream, clientAuth: 'client_secret_basic', clientSecret: 's', scope: 'openid', country: 'FI' }]),
    );
    expect(startProblems([suomifi], { OIDC_UPSTREAMS: oidc })).toEqual([
      'SAML_UPSTREAMS upstream "suomifi", field name: is an OIDC_UPSTREAMS name too',
    ]);
  });
});
