import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type Provider from 'oidc-provider';
import type { AuthorizationDetail, Grant } from 'oidc-provider';
import type { ApiKeyPrincipal } from '../auth/principal.js';
import type { EidOperation, IdentifiedUser } from '../eid-providers/eid-provider.js';
import { EidProviderRegistry } from '../eid-providers/eid-provider.registry.js';
import { SessionReader } from '../sessions/api/session-reader.js';
import type { AgeVerification } from '../sessions/session-age.js';
import type { SessionView } from '../sessions/session-view.js';
import { accountIdFor } from './ciba/ciba-subject.js';
import type { OidcClient } from './clients/oidc-client.js';
import { personKeyOf, personSubject } from './library/oidc-claims.js';
import { saveLoginGrant, type LoginGrant } from './library/oidc-login-grant.js';
import { OidcProviderService } from './library/oidc-provider.service.js';
import { amrOf } from './oidc-acr.js';

/** What a completed session proved: the person, or an age login's answer alone (docs/age-verification.md). */
export type SessionProof = { user: IdentifiedUser } | { ageVerification: AgeVerification };

/** A completed e-ID session about to become a login of a client (the login page's or a CIBA request's). */
export interface CompletedSession {
  client: OidcClient;
  /** The client acting as its team's key, to read the session's evidence. */
  principal: ApiKeyPrincipal;
  view: SessionView;
  proof: SessionProof;
  /** The login's accountId at the client: subjectOf the proof, or the one the request was made for. */
  subject: string;
  acr: string;
  /** The e-ID provider that answered: its amr. */
  eidProvider: string;
  operation: EidOperation;
  scope: string;
  claims?: LoginGrant['claims'];
  rar?: AuthorizationDetail[];
}

/** The login a completed session became: its grant, and the amr and auth_time the provider states. */
export interface SessionLogin {
  grant: Grant;
  amr: string[] | undefined;
  authTime: number;
}

/**
 * The one step the login page and CIBA share (docs/oidc.md, "Folders"): a completed e-ID session
 * becomes an OIDC login, a grant carrying what the session proved (docs/oidc.md, "State").
 */
@Injectable()
export class OidcSessionLogin {
  constructor(
    private readonly oidc: OidcProviderService,
    private readonly reader: SessionReader,
    private readonly registry: EidProviderRegistry,
  ) {}

  /** The accountId of a person (by personKeyOf) at a client: the pairwise value where the library cannot make it. */
  accountIdOf(client: OidcClient, personKey: string): string {
    const key = this.oidc.personSubjectKey;
    return accountIdFor(client, key, personSubject(key, client.environment, personKey));
  }

  /** The proof's accountId; an age login's is new at every login, so that nothing links two of them (docs/age-verification.md). */
  subjectOf(client: OidcClient, proof: SessionProof): string {
    return 'user' in proof ? this.accountIdOf(client, personKeyOf(proof.user)) : randomBytes(32).toString('base64url');
  }

  /** The login's grant (its claims ride in it: every token of this login, and only of it, reads them). */
  async grant(provider: Provider, session: CompletedSession): Promise<SessionLogin> {
    const { client, view, proof } = session;
    const common = {
      clientId: client.clientId,
      subject: session.subject,
      txn: view.sessionId,
      resultToken: 'resultToken' in view ? view.resultToken : undefined,
      acr: session.acr,
      personalNumberClaim: client.personalNumberClaim,
    };
    const grant = await saveLoginGrant(provider, {
      scope: session.scope,
      claims: session.claims,
      rar: session.rar,
      account:
        'user' in proof
          ? { ...common, user: proof.user, ...(await this.signatureOf(session)) }
          : { ...common, ageVerification: proof.ageVerification },
    });
    const completedAt = 'completedAt' in view && view.completedAt ? Date.parse(view.completedAt) : Date.now();
    return {
      grant,
      amr: amrOf(this.registry.profileOf(session.eidProvider), 'evidence' in view ? view.evidence : undefined),
      authTime: Math.floor(completedAt / 1000),
    };
  }

  /** A signature's user signature (base64 XML) from the session's evidence (docs/evidence.md); none when the provider gave none. */
  private async signatureOf(session: CompletedSession): Promise<{ userSignature?: string }> {
    if (session.operation !== 'sign') return {};
    const evidence = await this.reader.evidence(session.principal, session.view.sessionId).catch(() => undefined);
    return typeof evidence?.signature === 'string' ? { userSignature: evidence.signature } : {};
  }
}
