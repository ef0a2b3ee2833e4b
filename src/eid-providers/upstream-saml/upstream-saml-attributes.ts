import type { IdentifiedUser } from '../eid-provider.js';
import type { UpstreamSamlConfig } from './upstream-saml.env.js';

/** An attribute's first value, when it is text. */
const text = (value: string | string[] | undefined): string | undefined => {
  const one = Array.isArray(value) ? value[0] : value;
  return typeof one === 'string' && one.trim() !== '' ? one.trim() : undefined;
};

/**
 * The person from the assertion's attributes by the upstream's attribute map (docs/saml.md, "Upstream
 * SAML e-IDs"). Null without a personal number or a national identifier: a name is nobody's identity.
 */
export function userFromAttributes(attributes: Record<string, string | string[]>, upstream: UpstreamSamlConfig): IdentifiedUser | null {
  const names = upstream.attributes;
  const read = (name: string | undefined) => (name ? text(attributes[name]) : undefined);
  const givenName = read(names.givenName) ?? '';
  const surname = read(names.surname) ?? '';
  const name = read(names.name) ?? [givenName, surname].filter(Boolean).join(' ');
  const personalNumber = read(names.personalNumber);
  const nationalId = read(names.nationalId);
  const birthdate = read(names.birthdate);
  if (!personalNumber && !nationalId) return null;
  return {
    ...(personalNumber ? { personalNumber } : {}),
    ...(nationalId ? { nationalId } : {}),
    name,
    givenName,
    surname,
    ...(birthdate ? { birthdate } : {}),
    country: upstream.country,
  };
}
