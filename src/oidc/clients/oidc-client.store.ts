import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { ApiKeyEnvironment } from '../../api-keys/api-key-format.js';
import { statement } from '../../database/statement.js';
import type { OidcClient } from './oidc-client.js';

const COLUMNS: Record<Exclude<keyof OidcClient, never>, string> = {
  id: 'id',
  teamId: 'team_id',
  environment: 'environment',
  clientId: 'client_id',
  name: 'name',
  redirectUris: 'redirect_uris',
  postLogoutRedirectUris: 'post_logout_redirect_uris',
  tokenEndpointAuthMethod: 'token_endpoint_auth_method',
  secretEnc: 'secret_enc',
  jwks: 'jwks',
  jwksUri: 'jwks_uri',
  providers: 'providers',
  subjectType: 'subject_type',
  requirePar: 'require_par',
  personalNumberClaim: 'personal_number_claim',
  maxRisk: 'max_risk',
  backchannelTokenDeliveryMode: 'backchannel_token_delivery_mode',
  backchannelClientNotificationEndpoint: 'backchannel_client_notification_endpoint',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};
const FIELDS = Object.keys(COLUMNS) as (keyof OidcClient)[];
const SELECT = FIELDS.map((field) => `${COLUMNS[field]} AS "${field}"`).join(', ');
// What an update may change: the id, team, environment, client id and authentication method stay as created.
const UPDATABLE = [
  'name',
  'redirectUris',
  'postLogoutRedirectUris',
  'secretEnc',
  'jwks',
  'jwksUri',
  'providers',
  'subjectType',
  'requirePar',
  'personalNumberClaim',
  'maxRisk',
  'backchannelTokenDeliveryMode',
  'backchannelClientNotificationEndpoint',
  'updatedAt',
] as const;
export type OidcClientChanges = Partial<Pick<OidcClient, (typeof UPDATABLE)[number]>>;

// jsonb takes the key set as JSON text.
const valueOf = (client: Partial<OidcClient>, field: keyof OidcClient): unknown =>
  field === 'jwks' && client.jwks ? JSON.stringify(client.jwks) : client[field];

// Values in the order of FIELDS.
const insertSql = statement<unknown[]>(
  `INSERT INTO oidc_clients (${FIELDS.map((field) => COLUMNS[field]).join(', ')})
   VALUES (${FIELDS.map((_, i) => `$${i + 1}`).join(', ')})`,
);
const lockTeamSql = statement<[teamId: string]>(`SELECT 1 FROM teams WHERE id = $1 FOR UPDATE`);
const countForTeamSql = statement<[teamId: string], { count: number }>(
  `SELECT count(*)::int AS count FROM oidc_clients WHERE team_id = $1`,
);
const byClientId = statement<[clientId: string], OidcClient>(`SELECT ${SELECT} FROM oidc_clients WHERE client_id = $1`);
const forTeam = statement<[id: string, teamId: string], OidcClient>(`SELECT ${SELECT} FROM oidc_clients WHERE id = $1 AND team_id = $2`);
const listSql = statement<[teamId: string, environment: ApiKeyEnvironment | null], OidcClient>(
  `SELECT ${SELECT} FROM oidc_clients WHERE team_id = $1 AND ($2::text IS NULL OR environment = $2)
    ORDER BY created_at, id`,
);
// One statement for any set of changes: a column not named in $3 keeps its value. Values in the order of UPDATABLE.
const updateSql = statement<[id: string, teamId: string, changed: string[], ...values: unknown[]]>(
  `UPDATE oidc_clients
      SET ${UPDATABLE.map((field, i) => `${COLUMNS[field]} = CASE WHEN '${field}' = ANY ($3::text[]) THEN $${i + 4} ELSE ${COLUMNS[field]} END`).join(',\n          ')}
    WHERE id = $1 AND team_id = $2`,
);
const deleteSql = statement<[id: string, teamId: string], OidcClient>(
  `DELETE FROM oidc_clients WHERE id = $1 AND team_id = $2 RETURNING ${SELECT}`,
);

/** Every statement on oidc_clients; every read but the provider's lookup is scoped by team and environment. */
@Injectable()
export class OidcClientStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(client: OidcClient): Promise<void> {
    await insertSql.run(this.dataSource, ...FIELDS.map((field) => valueOf(client, field)));
  }

  /**
   * Inserts the client unless its team already has `max`; answers how many the team had. The team
   * row's lock orders concurrent registrations of one team, so two cannot both take the last place.
   */
  insertWithin(client: OidcClient, max: number): Promise<{ inserted: boolean; existing: number }> {
    return this.dataSource.transaction(async (manager) => {
      await lockTeamSql.run(manager, client.teamId);
      const existing = (await countForTeamSql.run(manager, client.teamId)).rows[0].count;
      if (existing >= max) return { inserted: false, existing };
      await insertSql.run(manager, ...FIELDS.map((field) => valueOf(client, field)));
      return { inserted: true, existing };
    });
  }

  /** The provider's lookup by client_id: a client answers for its own team and environment only. */
  async findByClientId(clientId: string): Promise<OidcClient | undefined> {
    return (await byClientId.run(this.dataSource, clientId)).rows[0];
  }

  /** A team member manages both environments' clients, as the team's webhook endpoints. */
  async findForTeam(id: string, teamId: string): Promise<OidcClient | undefined> {
    return (await forTeam.run(this.dataSource, id, teamId)).rows[0];
  }

  async listForTeam(teamId: string, environment: ApiKeyEnvironment | undefined): Promise<OidcClient[]> {
    return (await listSql.run(this.dataSource, teamId, environment ?? null)).rows;
  }

  /** Writes the changed fields. */
  async update(id: string, teamId: string, changes: OidcClientChanges): Promise<void> {
    const changed = UPDATABLE.filter((field) => field in changes);
    if (changed.length === 0) return;
    await updateSql.run(this.dataSource, id, teamId, changed, ...UPDATABLE.map((field) => valueOf(changes, field)));
  }

  /** The deleted client, or undefined when the team has none by that id. */
  async delete(id: string, teamId: string): Promise<OidcClient | undefined> {
    return (await deleteSql.run(this.dataSource, id, teamId)).rows[0];
  }
}
