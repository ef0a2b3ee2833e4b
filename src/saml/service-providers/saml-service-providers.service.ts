import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { DomainException } from '../../common/problem-details/domain.exception.js';
import { ValidationProblemException } from '../../common/problem-details/validation-problem.exception.js';
import { isUuid } from '../../common/validation/is-uuid.js';
import { serverConfig, type ServerConfig } from '../../config/server.config.js';
import { EidProviderRegistry } from '../../eid-providers/eid-provider.registry.js';
import type { CreateSamlServiceProviderDto, UpdateSamlServiceProviderDto } from './dto/create-saml-service-provider.dto.js';
import { SAML_ATTRIBUTE_NAMES, type SamlServiceProvider } from './saml-service-provider.js';
import { serviceProviderProblems } from './saml-service-provider-rules.js';
import { SamlServiceProviderStore, type SamlServiceProviderChanges } from './saml-service-provider.store.js';

const notFound = () => new DomainException('not_found', 'No such SAML service provider.');

/** The team's SAML service providers (docs/saml.md, "Registering a service provider"). */
@Injectable()
export class SamlServiceProvidersService {
  constructor(
    private readonly store: SamlServiceProviderStore,
    private readonly clock: Clock,
    @Inject(serverConfig.KEY) private readonly server: ServerConfig,
    // Absent in the command line, which loads no e-ID provider: there provider names are not checked.
    @Optional() private readonly registry?: EidProviderRegistry,
  ) {}

  async create(teamId: string, body: CreateSamlServiceProviderDto) {
    const now = this.clock.now();
    const sp: SamlServiceProvider = {
      id: randomUUID(),
      teamId,
      environment: body.environment ?? 'test',
      name: body.name,
      entityId: body.entityId,
      acsUrls: body.acsUrls,
      singleLogoutUrl: body.singleLogoutUrl ?? null,
      signingCertificate: body.signingCertificate,
      encryptionCertificate: body.encryptionCertificate ?? null,
      providers: body.providers ?? null,
      attributes: body.attributes ?? [...SAML_ATTRIBUTE_NAMES],
      createdAt: now,
      updatedAt: now,
    };
    this.assertValid(sp);
    try {
      await this.store.insert(sp);
    } catch (error) {
      // uq_saml_service_providers_entity_id: an AuthnRequest names its SP by entityID alone.
      if ((error as { code?: string }).code === '23505')
        throw new DomainException('entity_id_taken', 'A service provider with this entityID is already registered.');
      throw error;
    }
    return this.view(sp);
  }

  async list(teamId: string) {
    return (await this.store.listForTeam(teamId)).map((sp) => this.view(sp));
  }

  async get(teamId: string, id: string) {
    return this.view(await this.find(teamId, id));
  }

  async update(teamId: string, id: string, body: UpdateSamlServiceProviderDto) {
    const current = await this.find(teamId, id);
    const changes: SamlServiceProviderChanges = {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.acsUrls !== undefined ? { acsUrls: body.acsUrls } : {}),
      ...(body.singleLogoutUrl !== undefined ? { singleLogoutUrl: body.singleLogoutUrl } : {}),
      ...(body.signingCertificate !== undefined ? { signingCertificate: body.signingCertificate } : {}),
      ...(body.encryptionCertificate !== undefined ? { encryptionCertificate: body.encryptionCertificate } : {}),
      ...(body.providers !== undefined ? { providers: body.providers } : {}),
      ...(body.attributes !== undefined ? { attributes: body.attributes } : {}),
      updatedAt: this.clock.now(),
    };
    const updated = { ...current, ...changes };
    this.assertValid(updated);
    await this.store.update(id, teamId, changes);
    return this.view(updated);
  }

  /** Answers the removed SP (for the audit entry); its logins in progress go with it. */
  async remove(teamId: string, id: string) {
    const removed = isUuid(id) ? await this.store.delete(id, teamId) : undefined;
    if (!removed) throw notFound();
    return this.view(removed);
  }

  private async find(teamId: string, id: string): Promise<SamlServiceProvider> {
    const sp = isUuid(id) ? await this.store.findForTeam(id, teamId) : undefined;
    if (!sp) throw notFound();
    return sp;
  }

  private assertValid(sp: SamlServiceProvider): void {
    // Any provider with a SAML authentication context, enabled now or not.
    const offered = this.registry
      ? new Set(this.registry.all().flatMap((provider) => (provider.openId?.samlAuthnContexts?.length ? [provider.name] : [])))
      : new Set(sp.providers ?? []);
    const problems = serviceProviderProblems(sp, offered, this.server.production);
    if (problems.length) throw new ValidationProblemException(problems);
  }

  private view(sp: SamlServiceProvider) {
    return {
      id: sp.id,
      environment: sp.environment,
      name: sp.name,
      entityId: sp.entityId,
      acsUrls: sp.acsUrls,
      singleLogoutUrl: sp.singleLogoutUrl,
      signingCertificate: sp.signingCertificate,
      encryptionCertificate: sp.encryptionCertificate,
      providers: sp.providers,
      attributes: sp.attributes,
      metadataUrl: `${this.server.publicBaseUrl}/saml/metadata`,
      createdAt: sp.createdAt.toISOString(),
      updatedAt: sp.updatedAt.toISOString(),
    };
  }
}
