import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateEnv } from '../../app.env.js';
import { problemsOf } from '../../../test/support/env-problems.js';
import { parseUpstreams } from './upstream-oidc.env.js';

describe(parseUpstreams.name, () => {
  const dir = mkdtempSync(join(tmpdir(), 'upstreams-'));
  const key = join(dir, 'key.pem');
  writeFileSync(key, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const nbid = {
    name: 'nbid',
    issuer: 'https://auth.current.bankid.no/auth/realms/current',
    environment: 'test',
    clientId: 'rp',
    clientAuth: 'private_key_jwt',
    privateKey: key,
    scope: 'openid profile nnin',
    claims: { nationalId: 'nnin' },
    country: 'NO',
  };
  const parse = (entries: unknown[]) => parseUpstreams(JSON.stringify(entries));
  /** The start's report for OIDC_UPSTREAMS naming a file with these entries. */
  const startProblems = (entries: unknown[], env: NodeJS.ProcessEnv = {}): string[] => {
    const file = join(dir, `upstreams-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(entries));
    return problemsOf({ ...env, OIDC_UPSTREAMS: file });
  };

  it('should read a valid upstream with its key', () => {
    const [upstream] = parse([nbid]);
    expect(upstream).toMatchObject({ name: 'nbid', requestObject: false, country: 'NO' });
    expect(upstream.privateKey?.asymmetricKeyType).toBe('ec');
  });

  it('should read the acr values it answers to on the OpenID front apart from those sent to it', () => {
    const [upstream] = parse([{ ...nbid, acrValues: 'urn:bankid:bid', frontAcrValues: ['urn:grn:authn:no:bankid'] }]);
    expect(upstream).toMatchObject({ acrValues: 'urn:bankid:bid', frontAcrValues: ['urn:grn:authn:no:bankid'] });
  });

  it.each([
    [{ ...nbid, clientAuth: 'client_secret_basic' }, 'upstream "nbid", field clientSecret: is required with client_secret_basic'],
    [{ ...nbid, privateKey: undefined }, 'upstream "nbid", field privateKey'],
    [{ ...nbid, privateKey: join(dir, 'missing.pem') }, 'upstream "nbid", field privateKey is not a readable PEM'],
    [{ ...nbid, scope: 'profile' }, 'upstream "nbid", field scope: must include openid'],
    [{ ...nbid, country: 'Norway' }, 'upstream "nbid", field country'],
    [{ ...nbid, businessClaims: { nin: 'vatid' } }, 'upstream "nbid", field businessClaims.nin: is a claim the service issues itself'],
    [{ ...nbid, businessClaims: { 'org no': 'x' } }, 'upstream "nbid", field businessClaims.org no: must be a claim name without spaces'],
    [{ ...nbid, logo: '//evil.example/logo.svg' }, 'upstream "nbid", field logo: must be a path on this origin, not another host'],
    [{ ...nbid, logo: 'https://evil.example/logo.svg' }, 'upstream "nbid", field logo: must be a path on this origin'],
    [{ ...nbid, name: 'bankid' }, 'upstream "bankid", field name: is taken by another provider'],
    [{ ...nbid, claims: { nnin: 'nnin' } }, 'upstream "nbid", field claims'],
    [{ ...nbid, name: undefined }, 'upstream #1, field name'],
    [{ ...nbid, frontAcrValues: [] }, 'upstream "nbid", field frontAcrValues'],
    [
      { ...nbid, frontAcrValues: ['urn:grn:authn:no:bankid urn:x'] },
      'upstream "nbid", field frontAcrValues.0: must be acr values without spaces',
    ],
    [{ ...nbid, frontAcrValues: ['urn:a', 'urn:a'] }, 'upstream "nbid", field frontAcrValues: must not repeat a value'],
  ])('should stop the start naming the upstream and the field (%#)', (entry, message) => {
    expect(() => parse([entry])).toThrow(message);
  });

  it('should refuse a name used twice and a file that is not a list', () => {
    expect(() => parse([nbid, nbid])).toThrow('upstream "nbid", field name: is used twice');
    expect(() => parseUpstreams('{}')).toThrow('must hold a list');
  });

  it('should check the file with the rest of the environment at start: plain HTTP only outside production', () => {
    const http = { ...nbid, issuer: 'http://127.0.0.1:9000' };
    expect(startProblems([http])).toEqual([]);
    expect(validateEnv({ OIDC_UPSTREAMS: undefined }).OIDC_UPSTREAMS).toEqual([]);
    expect(startProblems([http], { NODE_ENV: 'production' })).toContain(
      'OIDC_UPSTREAMS upstream "nbid", field issuer: must be https when NODE_ENV=production',
    );
    expect(startProblems([{ ...nbid, scope: 'profile' }])).toEqual(['OIDC_UPSTREAMS upstream "nbid", field scope: must include openid']);
    expect(() => validateEnv({ OIDC_UPSTREAMS: join(dir, 'missing.json') })).toThrow('OIDC_UPSTREAMS the file cannot be read');
  });
});
