import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Members (docs/console.md, "Members"): an owner role for adding and removing members, the time a
 * member first logged in (until then the member is `invited`), and invitations of contacts that
 * cannot join, so that adding one answers and lists like any other invitation and tells no team
 * whether a contact belongs to someone elsewhere.
 */
export class AddMemberRolesAndInvitations1796621704368 implements MigrationInterface {
  name = 'AddMemberRolesAndInvitations1796621704368';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE users ADD COLUMN role text NOT NULL DEFAULT 'member'`);
    await db.query(`ALTER TABLE users ADD CONSTRAINT ck_users_role CHECK (role IN ('owner', 'member'))`);
    await db.query(`ALTER TABLE users ADD COLUMN joined_at timestamptz`);
    // Today's members have been members all along; each team's first member becomes its owner.
    await db.query(`UPDATE users SET joined_at = created_at`);
    await db.query(
      `UPDATE users SET role = 'owner' WHERE id IN (SELECT DISTINCT ON (team_id) id FROM users ORDER BY team_id, created_at, id)`,
    );
    await db.query(`
      CREATE TABLE member_invitations (
        id uuid NOT NULL,
        team_id uuid NOT NULL,
        email text,
        phone text,
        created_at timestamptz NOT NULL,
        CONSTRAINT pk_member_invitations PRIMARY KEY (id),
        CONSTRAINT fk_member_invitations_team FOREIGN KEY (team_id) REFERENCES teams (id) ON DELETE CASCADE,
        CONSTRAINT ck_member_invitations_contact CHECK (email IS NOT NULL OR phone IS NOT NULL)
      )`);
    await db.query(`CREATE UNIQUE INDEX uq_member_invitations_email ON member_invitations (team_id, lower(email)) WHERE email IS NOT NULL`);
    await db.query(`CREATE UNIQUE INDEX uq_member_invitations_phone ON member_invitations (team_id, phone) WHERE phone IS NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE member_invitations`);
    await db.query(`ALTER TABLE users DROP COLUMN joined_at`);
    await db.query(`ALTER TABLE users DROP CONSTRAINT ck_users_role`);
    await db.query(`ALTER TABLE users DROP COLUMN role`);
  }
}
