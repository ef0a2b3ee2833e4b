import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { statement } from '../../database/statement.js';
import type { SamlServiceProvider } from './saml-service-provider.js';

const COLUMNS: Record<keyof SamlServiceProvider, string> = {
  id: 'id',
  teamId: 'team_id',
  environment: 'environment',
  name: 'name',
  entityId: 'entity_id',
  acsUrls: 'acs_urls',
  singleLogoutUrl: 'single_logout_url',
  signingCertificate: 'signing_certificate',
  encryptionCertificate: 'encryption_certificate',
  providers: 'providers',
  attributes: 'attributes',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};
const FIELDS = Object.keys(COLUMNS) as (keyof SamlServiceProvider)[];
const SELECT = FIELDS.map((field) => `${COLUMNS[field]} AS "${field}"`).join(', ');
// What an update may change: the id, team, environment and entityID stay as created.
const UPDATABLE = [
  'name',
  'acsUrls',
  'singleLogoutUrl',
  'signingCertificate',
  'encryptionCertificate',
  'providers',
  'attributes',
  'updatedAt',
] as const;
export type SamlServiceProviderChanges = Partial<Pick<SamlServiceProvider, (typeof UPDATABLE)[number]>>;

const insertSql = statement<unknown[]>(
  `INSERT INTO saml_service_providers (${FIELDS.map((field) => COLUMNS[field]).join(', ')})
   VALUES (${FIELDS.map((_, i) => `$${i + 1}`).join(', ')})`,
);
const byEntityId = statement<[entityId: string], SamlServiceProvider>(`SELECT ${SELECT} FROM saml_service_providers WHERE entity_id = $1`);
const byId = statement<[id: string], SamlServiceProvider>(`SELECT ${SELECT} FROM saml_service_providers WHERE id = $1`);
const forTeam = statement<[id: string, teamId: string], SamlServiceProvider>(
  `SELECT ${SELECT} FROM saml_service_providers WHERE id = $1 AND team_id = $2`,
);
const listSql = statement<[teamId: string], SamlServiceProvider>(
  `SELECT ${SELECT} FROM saml_service_providers WHERE team_id = $1 ORDER BY created_at, id`,
);
// One statement for any set of changes: a column not named in $3 keeps its value. Values in the order of UPDATABLE.
const updateSql = statement<[id: string, teamId: string, changed: string[], ...values: unknown[]]>(
  `UPDATE saml_service_providers
      SET ${UPDATABLE.map((field, i) => `${COLUMNS[field]} = CASE WHEN '${field}' = ANY ($3::text[]) THEN $${i + 4} ELSE ${COLUMNS[field]} END`).join(',\n          ')}
    WHERE id = $1 AND team_id = $2`,
);
const deleteSql = statement<[id: string, teamId: string], SamlServiceProvider>(
  `DELETE FROM saml_service_providers WHERE id = $1 AND team_id = $2 RETURNING ${SELECT}`,
);

/** Every statement on saml_service_providers; the management reads are scoped by team. */
@Injectable()
export class SamlServiceProviderStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(sp: SamlServiceProvider): Promise<void> {
    await insertSql.run(this.dataSource, ...FIELDS.map((field) => sp[field]));
  }

  /** The SSO endpoint's lookup by an AuthnRequest's Issuer: the SP answers for its own team and environment only. */
  async findByEntityId(entityId: string): Promise<SamlServiceProvider | undefined> {
    return (await byEntityId.run(this.dataSource, entityId)).rows[0];
  }

  /** A login in progress names its SP by id (it was found by entityID when the login began). */
  async findById(id: string): Promise<SamlServiceProvider | undefined> {
    return (await byId.run(this.dataSource, id)).rows[0];
  }

  /** A team member manages both environments' SPs, as the team's OIDC clients. */
  async findForTeam(id: string, teamId: string): Promise<SamlServiceProvider | undefined> {
    return (await forTeam.run(this.dataSource, id, teamId)).rows[0];
  }

  async listForTeam(teamId: string): Promise<SamlServiceProvider[]> {
    return (await listSql.run(this.dataSource, teamId)).rows;
  }

  async update(id: string, teamId: string, changes: SamlServiceProviderChanges): Promise<void> {
    const changed = UPDATABLE.filter((field) => field in changes);
    if (changed.length === 0) return;
    await updateSql.run(this.dataSource, id, teamId, changed, ...UPDATABLE.map((field) => changes[field]));
  }

  async delete(id: string, teamId: string): Promise<SamlServiceProvider | undefined> {
    return (await deleteSql.run(this.dataSource, id, teamId)).rows[0];
  }
}
