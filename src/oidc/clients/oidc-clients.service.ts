import { randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { DataCipher } from '../../common/crypto/data-cipher.js';
import { randomBase62 } from '../../common/crypto/random-token.js';
import { DomainException } from '../../common/problem-details/domain.exception.js';
import { ValidationProblemException } from '../../common/problem-details/validation-problem.exception.js';
import { isUuid } from '../../common/validation/is-uuid.js';
import { serverConfig, type ServerConfig } from '../../config/server.config.js';
import { EidProviderRegistry } from '../../eid-providers/eid-provider.registry.js';
import type { CreateOidcClientDto, UpdateOidcClientDto } from './dto/create-oidc-client.dto.js';
import { secretAad, type OidcClient } from './oidc-client.js';
import { clientProblems } from './oidc-client-rules.js';
import { OidcClientCache } from './oidc-client-cache.js';
import { OidcClientStore, type OidcClientChanges } from './oidc-client.store.js';

const newSecret = () => randomBytes(32).toString('base64url');

/** The team's OIDC clients (docs/oidc.md, "Registering a client"); the secret is shown at creation and rotation only. */
// Every client is a row the provider may load and a jwks_uri it may fetch: a team has a bounded number (docs/oidc.md).
export const MAX_CLIENTS_PER_TEAM = 100;

@Injectable()
export class OidcClientsService {
  constructor(
    private readonly store: OidcClientStore,
    private readonly cache: OidcClientCache,
    private readonly cipher: DataCipher,
    private readonly clock: Clock,
    @Inject(serverConfig.KEY) private readonly server: ServerConfig,
    // Absent in the command line, which loads no e-ID provider and never sets a client's providers.
    @Optional() private readonly registry?: EidProviderRegistry,
  ) {}

  async create(teamId: string, body: CreateOidcClientDto) {
    const environment = body.environment ?? 'test';
    const method = body.tokenEndpointAuthMethod ?? 'client_secret_basic';
    const id = randomUUID();
    const now = this.clock.now();
    const secret = method.startsWith('client_secret_') ? newSecret() : null;
    const client: OidcClient = {
      id,
      teamId,
      environment,
      clientId: `eidc_${environment}_${randomBase62(24)}`,
      name: body.name,
      redirectUris: body.redirectUris,
      postLogoutRedirectUris: body.postLogoutRedirectUris ?? [],
      tokenEndpointAuthMethod: method,
      secretEnc: secret ? this.cipher.encrypt(secret, secretAad(id)) : null,
      jwks: body.jwks ?? null,
      jwksUri: body.jwksUri ?? null,
      providers: body.providers ?? null,
      subjectType: body.subjectType ?? 'pairwise',
      requirePar: body.requirePushedAuthorizationRequests ?? false,
      personalNumberClaim: body.personalNumberClaim ?? null,
      maxRisk: body.maxRisk ?? null,
      backchannelTokenDeliveryMode: body.backchannelTokenDeliveryMode ?? null,
      backchannelClientNotificationEndpoint: body.backchannelClientNotificationEndpoint ?? null,
      createdAt: now,
      updatedAt: now,
    };
    this.assertValid(client);
    const { inserted, existing } = await this.store.insertWithin(client, MAX_CLIENTS_PER_TEAM);
    if (!inserted) {
      throw new ValidationProblemException([
        { pointer: '', detail: `the team has ${existing} OIDC clients, the most it may have; remove one first` },
      ]);
    }
    return { ...this.view(client), clientSecret: secret };
  }

  async list(teamId: string) {
    return (await this.store.listForTeam(teamId, undefined)).map((client) => this.view(client));
  }

  async get(teamId: string, id: string) {
    return this.view(await this.find(teamId, id));
  }

  async update(teamId: string, id: string, body: UpdateOidcClientDto) {
    const current = await this.find(teamId, id);
    const changes: OidcClientChanges = {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.redirectUris !== undefined ? { redirectUris: body.redirectUris } : {}),
      ...(body.postLogoutRedirectUris !== undefined ? { postLogoutRedirectUris: body.postLogoutRedirectUris } : {}),
      ...(body.jwks !== undefined ? { jwks: body.jwks } : {}),
      ...(body.jwksUri !== undefined ? { jwksUri: body.jwksUri } : {}),
      ...(body.providers !== undefined ? { providers: body.providers } : {}),
      ...(body.subjectType !== undefined ? { subjectType: body.subjectType } : {}),
      ...(body.requirePushedAuthorizationRequests !== undefined ? { requirePar: body.requirePushedAuthorizationRequests } : {}),
      ...(body.personalNumberClaim !== undefined ? { personalNumberClaim: body.personalNumberClaim } : {}),
      ...(body.maxRisk !== undefined ? { maxRisk: body.maxRisk } : {}),
      ...(body.backchannelTokenDeliveryMode !== undefined ? { backchannelTokenDeliveryMode: body.backchannelTokenDeliveryMode } : {}),
      ...(body.backchannelClientNotificationEndpoint !== undefined
        ? { backchannelClientNotificationEndpoint: body.backchannelClientNotificationEndpoint }
        : {}),
      updatedAt: this.clock.now(),
    };
    const updated = { ...current, ...changes };
    this.assertValid(updated);
    await this.store.update(id, teamId, changes);
    await this.cache.changed(current.clientId);
    return this.view(updated);
  }

  /** Answers the removed client (for the audit entry). */
  async remove(teamId: string, id: string) {
    const removed = isUuid(id) ? await this.store.delete(id, teamId) : undefined;
    if (!removed) throw new DomainException('not_found', 'No such OIDC client.');
    await this.cache.changed(removed.clientId);
    return this.view(removed);
  }

  /** A new secret replaces the old one at once (on every replica within a second): the client's configuration must change with it. */
  async rotateSecret(teamId: string, id: string) {
    const client = await this.find(teamId, id);
    if (!client.tokenEndpointAuthMethod.startsWith('client_secret_')) {
      throw new ValidationProblemException([{ pointer: '/tokenEndpointAuthMethod', detail: 'only client_secret_* clients have a secret' }]);
    }
    const secret = newSecret();
    const updatedAt = this.clock.now();
    await this.store.update(id, teamId, { secretEnc: this.cipher.encrypt(secret, secretAad(id)), updatedAt });
    await this.cache.changed(client.clientId);
    return { ...this.view({ ...client, updatedAt }), clientSecret: secret };
  }

  private async find(teamId: string, id: string): Promise<OidcClient> {
    const client = isUuid(id) ? await this.store.findForTeam(id, teamId) : undefined;
    if (!client) throw new DomainException('not_found', 'No such OIDC client.');
    return client;
  }

  private assertValid(client: OidcClient): void {
    const problems = clientProblems(client, this.server.production);
    if (this.registry) problems.push(...providerNameProblems(client, this.registry));
    if (problems.length) throw new ValidationProblemException(problems);
  }

  private view(client: OidcClient) {
    return {
      id: client.id,
      clientId: client.clientId,
      environment: client.environment,
      name: client.name,
      redirectUris: client.redirectUris,
      postLogoutRedirectUris: client.postLogoutRedirectUris,
      tokenEndpointAuthMethod: client.tokenEndpointAuthMethod,
      jwks: client.jwks,
      jwksUri: client.jwksUri,
      providers: client.providers,
      subjectType: client.subjectType,
      requirePushedAuthorizationRequests: client.requirePar,
      personalNumberClaim: client.personalNumberClaim,
      maxRisk: client.maxRisk,
      backchannelTokenDeliveryMode: client.backchannelTokenDeliveryMode,
      backchannelClientNotificationEndpoint: client.backchannelClientNotificationEndpoint,
      issuer: `${this.server.publicBaseUrl}/oidc`,
      createdAt: client.createdAt.toISOString(),
      updatedAt: client.updatedAt.toISOString(),
    };
  }
}

/** A client's providers are the registry's names: any provider with an OpenID face, enabled now or not (docs/oidc.md). */
function providerNameProblems(client: OidcClient, registry: EidProviderRegistry) {
  const offered = new Set(registry.all().flatMap((provider) => (provider.openId ? [provider.name] : [])));
  return (client.providers ?? []).flatMap((name, i) =>
    offered.has(name) ? [] : [{ pointer: `/providers/${i}`, detail: 'is not an e-ID provider of the OpenID front' }],
  );
}
