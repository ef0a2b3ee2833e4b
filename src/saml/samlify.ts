import { createRequire } from 'node:module';
import { assertSafeXml } from './saml-xml.js';

// samlify loaded without its type declarations: they pull in an older @xmldom/xmldom whose
// `/// <reference lib="dom" />` would change the global Crypto and Buffer types for the whole
// project. Below is the part of its API the front uses (samlify 2.13, types/src/entity-*.d.ts).

export interface SamlifySsoService {
  Binding: string;
  Location: string;
}

/** The parts of a message samlify reads: the binding's query or form, and for Redirect the signed octets. */
export interface SamlifyHttpRequest {
  query?: Record<string, unknown>;
  body?: Record<string, unknown>;
  octetString?: string;
}

export interface SamlifyServiceProvider {
  readonly entitySetting: Record<string, unknown>;
  /** The SP side of an upstream login (docs/saml.md, "Upstream SAML e-IDs"). */
  createLoginRequest(
    idp: SamlifyIdentityProvider,
    binding: 'redirect',
    options: { customTagReplacement: (template: string) => { id: string; context: string } },
  ): { id: string; context: string };
  parseLoginResponse(idp: SamlifyIdentityProvider, binding: 'post', request: SamlifyHttpRequest): Promise<SamlifyLoginResponse>;
  getMetadata(): string;
}

/** What samlify read from a Response whose signature held; the assertion's parts are from the signed assertion. */
export interface SamlifyLoginResponse {
  samlContent: string;
  extract: {
    response?: { id?: string; issueInstant?: string; destination?: string; inResponseTo?: string };
    audience?: string | string[];
    issuer?: string | string[];
    conditions?: { notBefore?: string; notOnOrAfter?: string };
    attributes?: Record<string, string | string[]>;
  };
}

export interface SamlifyEntityMetadata {
  getEntityID(): string;
  /** By samlify's short binding name ('redirect', 'post'): the URL, or not a string when there is none. */
  getSingleSignOnService(binding: 'redirect' | 'post'): unknown;
  isWantAuthnRequestsSigned(): boolean;
}

export interface SamlifyIdentityProvider {
  readonly entityMeta: SamlifyEntityMetadata;
  parseLoginRequest(sp: SamlifyServiceProvider, binding: 'redirect' | 'post', request: SamlifyHttpRequest): Promise<unknown>;
  parseLogoutRequest(sp: SamlifyServiceProvider, binding: 'redirect' | 'post', request: SamlifyHttpRequest): Promise<unknown>;
}

interface Samlify {
  SamlLib: {
    /** Whether the Response or its assertion is signed by the certificate in `metadata`; the verified assertion second. */
    verifySignature(xml: string, options: { metadata: SamlifyEntityMetadata }): [boolean, unknown];
    /** The Response with its one assertion encrypted to the target's encryption certificate, by the source's algorithms; base64. */
    encryptAssertion(source: SamlifyIdentityProvider, target: SamlifyServiceProvider, xml: string): Promise<string>;
  };
  IdentityProvider(settings: Record<string, unknown>): SamlifyIdentityProvider;
  ServiceProvider(settings: Record<string, unknown>): SamlifyServiceProvider;
  setSchemaValidator(validator: { validate: (xml: string) => Promise<unknown> }): void;
}

let loaded: Samlify | undefined;

/**
 * samlify, required on first use: a process that serves no SAML never loads it (docs/performance.md,
 * "Start-up"). Its "schema validator", which it asks before it parses any message, is our XML guard
 * (samlify's own DOM parser already refuses entities).
 */
export function samlify(): Samlify {
  if (!loaded) {
    loaded = createRequire(import.meta.url)('samlify') as Samlify;
    loaded.setSchemaValidator({
      validate: (xml: string) => {
        assertSafeXml(xml);
        return Promise.resolve('guarded');
      },
    });
  }
  return loaded;
}
