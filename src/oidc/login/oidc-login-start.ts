import type { EidOperation } from '../../eid-providers/eid-provider.js';
import type { AcrMethod, OpenIdProvider } from '../../eid-providers/eid-provider.registry.js';
import type { StartSessionBody } from '../../sessions/api/dto/start-session-body.js';
import { loginMethodsFor, type LoginMethod } from '../oidc-acr.js';
import { AGE_THRESHOLDS, type AgeThreshold } from '../../sessions/session-age.js';
import { AGE_ACR, AGE_SCOPES, ageScopeOf, SCOPE } from '../library/oidc-claims.js';
import { loginHintPersonalNumber, mayCarryPersonalNumber, userVisibleDataOf } from './oidc-request-params.js';
import { paymentOrderOf } from '../oidc-payment-details.js';
import { promptAllowsSigning, signOrderOf } from './oidc-sign-request.js';

/** How an authorization request reached the service (docs/oidc.md, "Request parameters"). */
export interface RequestChannel {
  /** Pushed (PAR): the parameters never travelled in a browser's URL. */
  pushed: boolean;
  /** Whether the parameter came inside a request object the client signed (JAR). */
  signed: (param: string) => boolean;
  /** A public client's PAR is unauthenticated: anyone may push for it. */
  publicClient: boolean;
}

export interface LoginStartInput {
  params: Record<string, unknown>;
  channel: RequestChannel;
  /** The providers the client may use that offer the operation on the app channel, the preferred first. */
  usable: (operation: EidOperation) => OpenIdProvider[];
  /** The provider that answers to an acr for the client's environment (the registry's). */
  forAcr: (acr: string) => AcrMethod | undefined;
  /** The acr the person picked on the chooser, if they have; one the request does not offer is ignored. */
  chosenAcr?: string;
}

export type LoginStart =
  | { refused: { error: string; error_description: string } }
  /** Several e-IDs fit and the person has not picked one: the chooser (docs/oidc.md, "The chooser"). */
  | { choices: LoginMethod[]; operation: EidOperation }
  | { method: LoginMethod; operation: EidOperation; body: Omit<StartSessionBody, 'endUserIp' | 'metadata' | 'returnUrl'> };

/**
 * The scopes an age login may carry beside its one `is_over_N` (docs/age-verification.md): none that
 * releases something of the person. Any other scope is `invalid_scope`.
 */
const AGE_LOGIN_SCOPES = new Set(['openid', 'offline_access', SCOPE.result, ...AGE_SCOPES]);

const SIGN_REQUEST = 'https://id.oidc.se/param/signRequest';

const refused = (error: string, description: string): LoginStart => ({ refused: { error, error_description: description } });

/**
 * What an authorization request asks the e-ID for (docs/oidc.md): a login, or with the sign scope a
 * signature of the signRequest's data; the provider from acr_values (or the person's pick among them);
 * the person from login_hint.
 * Anything the request may not ask is refused here, before a session is started.
 */
export function loginStartFor(input: LoginStartInput): LoginStart {
  const { params, channel } = input;
  // From the client itself: its authenticated PAR, or a request object it signed.
  const fromClient = (param: string) => (channel.pushed && !channel.publicClient) || channel.signed(param);
  // URLs end up in browser histories and logs: a personal number travels only in PAR (docs/oidc.md).
  const privately = (param: string) => channel.pushed && fromClient(param);
  const hint = loginHintPersonalNumber(params.login_hint);
  if (mayCarryPersonalNumber(params.login_hint)) {
    if (!privately('login_hint'))
      return refused(
        'invalid_request',
        channel.publicClient
          ? 'login_hint may carry a personal number only in a pushed (PAR) request object the client signed (JAR)'
          : 'login_hint may carry a personal number only in a pushed (PAR) request',
      );
    if (!hint?.valid) return refused('invalid_request', 'login_hint must be a 12-digit personal number with a valid check digit');
  }
  const age = ageLoginOf(params);
  if (age && 'refused' in age) return age;
  const signing = typeof params.scope === 'string' && params.scope.split(' ').includes(SCOPE.sign);
  const payment = paymentOrderOf(params.authorization_details);
  if (payment && signing) return refused('invalid_request', 'a request is a signature or a payment, not both');
  const operation: EidOperation = signing ? 'sign' : payment ? 'payment' : 'auth';
  let body: Extract<LoginStart, { body: unknown }>['body'];
  if (payment) {
    // What the app shows is what the client is told was approved: it must come from the client's back channel.
    if (!fromClient('authorization_details')) {
      return refused(
        'invalid_request',
        'a bankid_payment is accepted only in a pushed (PAR) or signed (JAR) request (a public client: signed)',
      );
    }
    if ('problem' in payment) return refused('invalid_request', payment.problem);
    body = { ...payment.order, userVisibleData: userVisibleDataOf(params['https://id.oidc.se/param/userMessage'], params.ui_locales) };
  } else if (signing) {
    // The OIDC Sweden signature extension: a fresh login the user consents to, data that nobody could alter on the way.
    if (!promptAllowsSigning(params.prompt)) return refused('invalid_request', 'a signature request needs prompt=login consent');
    if (!fromClient(SIGN_REQUEST))
      return refused('invalid_request', 'signRequest is accepted only in a pushed (PAR) or signed (JAR) request (a public client: signed)');
    const sign = signOrderOf(params[SIGN_REQUEST], params.ui_locales);
    if ('problem' in sign) return refused('invalid_request', sign.problem);
    body = sign.order;
  } else {
    body = { userVisibleData: userVisibleDataOf(params['https://id.oidc.se/param/userMessage'], params.ui_locales) };
  }
  // An age login is an identification whose answer replaces the person: any e-ID, or those the other acr_values name.
  if (age) body = { ...body, ageOver: age.ageOver };
  const usable = input.usable(operation);
  const methods = loginMethodsFor(age ? age.acrValues : params.acr_values, usable, input.forAcr);
  if (methods.length === 0) {
    const what = operation === 'auth' ? '' : `that offers ${operation} `;
    return refused('unmet_authentication_requirements', `None of the requested acr_values ${what}is available to this client`);
  }
  const method = methods.length === 1 ? methods[0] : methods.find((offered) => offered.acr === input.chosenAcr);
  if (!method) return { choices: methods, operation };
  return {
    method,
    operation,
    // An age login asks for nobody in particular: a personal number in it would be kept with the session.
    body: { ...body, ...(hint && !age && takesHint(usable, method.provider) ? { requirement: { personalNumber: hint.digits } } : {}) },
  };
}

/**
 * An age login (docs/age-verification.md, "OpenID"): acr_values has `urn:age-verification`, and the
 * scope exactly one `is_over_N` and nothing that releases the person; undefined for any other login.
 * `acrValues`: the request's other acr values, which may narrow the e-IDs offered.
 */
function ageLoginOf(
  params: Record<string, unknown>,
): { ageOver: AgeThreshold; acrValues: string } | Extract<LoginStart, { refused: unknown }> | undefined {
  const acrs = typeof params.acr_values === 'string' ? params.acr_values.split(' ').filter(Boolean) : [];
  const scopes = typeof params.scope === 'string' ? params.scope.split(' ').filter(Boolean) : [];
  const ages = AGE_THRESHOLDS.filter((age) => scopes.includes(ageScopeOf(age)));
  if (!acrs.includes(AGE_ACR)) {
    return ages.length ? { refused: { error: 'invalid_scope', error_description: `is_over_N needs acr_values=${AGE_ACR}` } } : undefined;
  }
  if (ages.length !== 1)
    return {
      refused: {
        error: 'invalid_scope',
        error_description: 'an age login asks for exactly one of is_over_15, is_over_16, is_over_18, is_over_21',
      },
    };
  if (scopes.some((scope) => !AGE_LOGIN_SCOPES.has(scope)) || params.authorization_details !== undefined)
    return {
      refused: {
        error: 'invalid_scope',
        error_description: 'an age login releases nothing of the person: ask for no other scope, and no payment',
      },
    };
  return { ageOver: ages[0], acrValues: acrs.filter((acr) => acr !== AGE_ACR).join(' ') };
}

// A provider that can be asked for one person makes the hint its requirement (docs/oidc.md, "Request parameters").
const takesHint = (usable: readonly OpenIdProvider[], name: string) =>
  usable.some((provider) => provider.name === name && provider.openId.personalNumberRequirement === true);
