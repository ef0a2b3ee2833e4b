import { createRequire } from 'node:module';

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
}

export interface SamlifyIdentityProvider {
  createLoginResponse(
    sp: SamlifyServiceProvider,
    requestInfo: { extract: Record<string, unknown> },
    binding: 'post',
    user: Record<string, unknown>,
    options: { customTagReplacement: (template: string) => { id: string; context: string }; encryptThenSign: boolean },
  ): Promise<{ id: string; context: string }>;
  parseLoginRequest(sp: SamlifyServiceProvider, binding: 'redirect' | 'post', request: SamlifyHttpRequest): Promise<unknown>;
  parseLogoutRequest(sp: SamlifyServiceProvider, binding: 'redirect' | 'post', request: SamlifyHttpRequest): Promise<unknown>;
}

interface Samlify {
  IdentityProvider(settings: Record<string, unknown>): SamlifyIdentityProvider;
  ServiceProvider(settings: Record<string, unknown>): SamlifyServiceProvider;
  setSchemaValidator(validator: { validate: (xml: string) => Promise<unknown> }): void;
}

export const samlify = createRequire(import.meta.url)('samlify') as Samlify;
