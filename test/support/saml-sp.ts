// A SAML service provider's side of a login, for the e2e tests of the SAML front (docs/saml.md):
// @node-saml/node-saml for everything a real SP does, a fetch with a cookie jar as the browser, and
// Debian's xmlsec1 checking every Response's signature apart from both libraries.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SAML, ValidateInResponseTo, type SamlConfig } from '@node-saml/node-saml';
import { SignedXml } from 'xml-crypto';
import { ECDSA_SHA256, EcdsaSha256 } from '../../src/saml/ecdsa-sha256.js';
import type { CookieBrowser } from './oidc-rp.js';

const run = promisify(execFile);

export interface KeyPair {
  key: string;
  cert: string;
  keyPath: string;
  certPath: string;
}

export interface SamlPki {
  dir: string;
  idp: KeyPair;
  sp: KeyPair;
  spEncryption: KeyPair;
  stranger: KeyPair;
  remove(): Promise<void>;
}

/**
 * Throwaway keys and self-signed certificates made with openssl: RSA (the framework's RSA-SHA256), the
 * IdP's on P-256 with `idpKey: 'ec'` (ECDSA-SHA256).
 */
export async function createSamlPki(options: { idpKey?: 'rsa' | 'ec' } = {}): Promise<SamlPki> {
  const dir = await mkdtemp(join(tmpdir(), 'eid-saml-'));
  const pair = async (name: string, newKey = 'rsa:2048'): Promise<KeyPair> => {
    const keyPath = join(dir, `${name}.key`);
    const certPath = join(dir, `${name}.crt`);
    const curve = newKey === 'ec' ? ['-pkeyopt', 'ec_paramgen_curve:P-256'] : [];
    await run('openssl', [
      'req', '-x509', '-newkey', newKey, ...curve, '-nodes', '-sha256', '-days', '2',
      '-subj', `/CN=${name}`, '-keyout', keyPath, '-out', certPath,
    ]); // prettier-ignore
    return { key: await readFile(keyPath, 'utf8'), cert: await readFile(certPath, 'utf8'), keyPath, certPath };
  };
  const idpKey = options.idpKey === 'ec' ? 'ec' : 'rsa:2048';
  const [idp, sp, spEncryption, stranger] = await Promise.all([pair('idp', idpKey), pair('sp'), pair('sp-encryption'), pair('stranger')]);
  return { dir, idp, sp, spEncryption, stranger, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * node-saml verifies with xml-crypto, which knows RSA only and gives node-saml no way to add an
 * algorithm: an SP on node-saml that accepts an ECDSA-signed Response registers ECDSA-SHA256 in
 * xml-crypto as this does, for every SignedXml of the process (the front registers it per instance).
 */
export function teachXmlCryptoEcdsa(): void {
  const signedXml = SignedXml.prototype as unknown as { findSignatureAlgorithm: (this: SignedXml, name?: string) => unknown };
  const find = signedXml.findSignatureAlgorithm;
  signedXml.findSignatureAlgorithm = function (name) {
    return name === ECDSA_SHA256 ? new EcdsaSha256() : find.call(this, name);
  };
}

/** An SP as node-saml plays it against the front at `origin`; its callback is never called, the test reads the form. */
export function samlClient(origin: string, pki: SamlPki, options: Partial<SamlConfig> = {}): SAML {
  return new SAML({
    entryPoint: `${origin}/saml/sso`,
    issuer: 'https://sp.example.test/saml',
    callbackUrl: 'https://sp.example.test/saml/acs',
    idpCert: pki.idp.cert,
    idpIssuer: `${origin}/saml`,
    privateKey: pki.sp.key,
    signatureAlgorithm: 'sha256',
    identifierFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
    authnContext: ['http://id.elegnamnden.se/loa/1.0/loa3'],
    racComparison: 'exact',
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: true,
    validateInResponseTo: ValidateInResponseTo.always,
    audience: 'https://sp.example.test/saml',
    ...options,
  });
}

export const decodeBase64 = (value: string): string => Buffer.from(value, 'base64').toString('utf8');

/** The hidden fields and action of the HTTP-POST page the front answers with. */
export function postForm(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error('Not a SAML POST page');
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
    fields[match[1]] = match[2]
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  return { action: action.replace(/&amp;/g, '&'), fields };
}

/** The login page's uid, session and kiosk token (what <eid-qr> is given). */
export function readSamlLoginPage(url: string, html: string) {
  const uid = /\/saml\/login\/([^/?#]+)/.exec(url)?.[1];
  const sessionId = /<eid-qr session="([^"]+)"/.exec(html)?.[1];
  const token = /<eid-qr session="[^"]+" token="([^"]*)"/.exec(html)?.[1];
  if (!uid || !sessionId || token === undefined) throw new Error(`Not a login page: ${url}`);
  return { uid, sessionId, token, html };
}

/** What login.js does once <eid-qr> shows the end: /done until the session has ended, then the POST page. */
export async function finishSamlLogin(browser: CookieBrowser, origin: string, uid: string, timeoutMs = 15_000): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await browser.get(`${origin}/saml/login/${uid}/done`);
    if (response.status !== 303) return response;
    if (Date.now() > deadline) throw new Error('The SAML login did not finish');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const ID_ELEMENTS = [
  'urn:oasis:names:tc:SAML:2.0:protocol:Response',
  'urn:oasis:names:tc:SAML:2.0:protocol:LogoutResponse',
  'urn:oasis:names:tc:SAML:2.0:assertion:Assertion',
  'urn:oasis:names:tc:SAML:2.0:metadata:EntityDescriptor',
];

/** xmlsec1 --verify of a document's first signature (the root's) with the IdP's certificate. */
export async function xmlsecVerify(xml: string, certPath: string): Promise<{ ok: boolean; output: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'eid-xmlsec-'));
  const file = join(dir, 'message.xml');
  await writeFile(file, xml);
  try {
    const ids = ID_ELEMENTS.flatMap((element) => ['--id-attr:ID', element]);
    const { stdout, stderr } = await run('xmlsec1', ['--verify', '--pubkey-cert-pem', certPath, ...ids, file]);
    return { ok: true, output: stdout + stderr };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
