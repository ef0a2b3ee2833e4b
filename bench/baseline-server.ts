import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

/**
 * The limit our routes are measured against: bare Fastify doing the same database work with `pg`
 * directly (one INSERT for start, one SELECT by primary key for poll), and a hello route.
 */
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10, application_name: 'bench-baseline' });
await pool.query(`CREATE TABLE IF NOT EXISTS bench_baseline (id uuid PRIMARY KEY, team_id uuid NOT NULL, status text NOT NULL,
  end_user_ip text NOT NULL, created_at timestamptz NOT NULL)`);

const app = Fastify();
app.get('/hello', async () => ({ hello: 'world' }));
app.post<{ Body: { endUserIp: string } }>('/start', async (request) => {
  const id = randomUUID();
  await pool.query('INSERT INTO bench_baseline (id, team_id, status, end_user_ip, created_at) VALUES ($1, $2, $3, $4, now())', [
    id,
    '00000000-0000-4000-8000-000000000000',
    'pending',
    request.body.endUserIp,
  ]);
  return { sessionId: id, status: 'pending' };
});
app.post<{ Params: { id: string } }>('/poll/:id', async (request, reply) => {
  const { rows } = await pool.query('SELECT id, status FROM bench_baseline WHERE id = $1', [request.params.id]);
  return rows[0] ? { sessionId: rows[0].id, status: rows[0].status } : reply.status(404).send();
});

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.('ready');
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => pool.end())
      .then(() => process.exit(0)),
);
