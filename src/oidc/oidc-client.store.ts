import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { ApiKeyEnvironment } from '../api-keys/api-key-format.js';
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

/** Every statement on oidc_clients; every read but the provider's lookup is scoped by team and environment. */
@Injectable()
export class OidcClientStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(client: OidcClient): Promise<void> {
    const values = FIELDS.map((field) => (field === 'jwks' && client.jwks ? JSON.stringify(client.jwks) : client[field]));
    await this.dataSource.query(
      `INSERT INTO oidc_clients (${FIELDS.map((field) => COLUMNS[field]).join(', ')})
       VALUES (${FIELDS.map((_, i) => `$${i + 1}`).join(', ')})`,
      values,
    );
  }

  /** The provider's lookup by client_id: a client answers for its own team and environment only. */
  async findByClientId(clientId: string): Promise<OidcClient | undefined> {
    const [row]: OidcClient[] = await this.dataSource.query(`SELECT ${SELECT} FROM oidc_clients WHERE client_id = $1`, [clientId]);
    return row;
  }

  /** A team member manages both environments' clients, as the team's webhook endpoints. */
  async findForTeam(id: string, teamId: string): Promise<OidcClient | undefined> {
    const [row]: OidcClient[] = await this.dataSource.query(`SELECT ${SELECT} FROM oidc_clients WHERE id = $1 AND team_id = $2`, [
      id,
      teamId,
    ]);
    return row;
  }

  listForTeam(teamId: string, environment: ApiKeyEnvironment | undefined): Promise<OidcClient[]> {
    return this.dataSource.query(
      `SELECT ${SELECT} FROM oidc_clients WHERE team_id = $1 AND ($2::text IS NULL OR environment = $2)
        ORDER BY created_at, id`,
      [teamId, environment ?? null],
    );
  }

  /** Writes the changed fields (their names come from this module's types, never from input). */
  async update(id: string, teamId: string, changes: Partial<OidcClient>): Promise<void> {
    const fields = FIELDS.filter((field) => field in changes && field !== 'id' && field !== 'teamId');
    if (fields.length === 0) return;
    const values = fields.map((field) => (field === 'jwks' && changes.jwks ? JSON.stringify(changes.jwks) : changes[field]));
    await this.dataSource.query(
      `UPDATE oidc_clients SET ${fields.map((field, i) => `${COLUMNS[field]} = $${i + 3}`).join(', ')} WHERE id = $1 AND team_id = $2`,
      [id, teamId, ...values],
    );
  }

  /** The deleted client, or undefined when the team has none by that id. */
  async delete(id: string, teamId: string): Promise<OidcClient | undefined> {
    const [rows]: [OidcClient[], number] = await this.dataSource.query(
      `DELETE FROM oidc_clients WHERE id = $1 AND team_id = $2 RETURNING ${SELECT}`,
      [id, teamId],
    );
    return rows[0];
  }
}
