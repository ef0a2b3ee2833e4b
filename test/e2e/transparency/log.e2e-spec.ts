import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { runCli } from '../../../src/cli/run-cli.js';
import { SessionPiiPurgeJob } from '../../../src/sessions/jobs/session-pii-purge.job.js';
import { verifyBundle, type BundlePart } from '../../../src/transparency/bundle-verifier.js';
import { TransparencyLog } from '../../../src/transparency/transparency-log.service.js';
import { TokensService } from '../../../src/tokens/tokens.service.js';
import { UsersService } from '../../../src/users/users.service.js';
import { createTeamWithKey } from '../../support/fixtures.js';
import { useE2eApp } from '../../support/e2e.js';
import { expectMatchesSchema } from '../../support/openapi.js';
import { expectProblem, expectValidationProblem } from '../../support/problem.js';
import { consistencyHolds, inclusionHolds, tokenLeafHex } from '../../support/rfc9162-reference.js';
import { completeSimulatorSession } from '../../support/webhooks.js';

type Bundle = Record<string, unknown> & {
  resultToken: string;
  jwks: JSONWebKeySet;
  evidence: Record<string, string>;
  verificationReport: string;
  transparency: { leafHash: string; leafIndex: number; treeSize: number; inclusionProof: string[]; treeHead: { jws: string } };
};

describe('Transparency log and evidence bundles', () => {
  const e2e = useE2eApp({ withKey: true, freezeClock: true, stopBackgroundJobs: true });
  const publish = () => e2e.app.get(TransparencyLog).publish(true);
  const bundleOf = async (sessionId: string): Promise<Bundle> => {
    const res = await e2e.http.get(`/api/v1/sessions/${sessionId}/bundle`).set('x-api-key', e2e.key).expect(200);
    expectMatchesSchema(res, 'GET /api/v1/sessions/{sessionId}/bundle');
    return res.body;
  };
  const sth = async () => {
    const res = await e2e.http.get('/transparency/sth').expect(200);
    expectMatchesSchema(res, 'GET /transparency/sth');
    return res.body as { treeSize: number; rootHash: string; timestamp: string; jws: string };
  };
  const jwks = async (): Promise<JSONWebKeySet> => (await e2e.http.get('/.well-known/jwks.json').expect(200)).body;
  // A witness checks a head's signature with jose against the published keys, not with our verifier.
  const signedHead = async (jws: string) =>
    (await jwtVerify(jws, createLocalJWKSet(await jwks()), { typ: 'eidgw-sth+jwt', algorithms: ['ES256'] })).payload as {
      treeSize: number;
      rootHash: string;
    };

  it('should log every final result token and prove each one and every pair of heads, as an independent verifier checks', async () => {
    const heads: { treeSize: number; rootHash: string }[] = [];
    const tokens: string[] = [];
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < round + 2; i++) {
        const sessionId = await completeSimulatorSession(e2e.app, e2e.clock, e2e.key, { action: i === 0 ? 'cancel' : 'approve' });
        const poll = await e2e.http.post(`/api/v1/auth/${sessionId}/poll`).set('x-api-key', e2e.key).expect(200);
        tokens.push(poll.body.resultToken);
      }
      await publish();
      e2e.clock.advance(1_000);
      const head = await sth();
      expect(await signedHead(head.jws)).toMatchObject({ treeSize: head.treeSize, rootHash: head.rootHash });
      heads.push(head);
    }
    // Failed sessions (the cancels) have result tokens too, and are logged like the others.
    expect(heads.map((head) => head.treeSize)).toEqual([2, 5, 9, 14]);
    const last = heads[heads.length - 1];
    for (const token of tokens) {
      const res = await e2e.http
        .get('/transparency/proof')
        .query({ leaf: tokenLeafHex(token), size: last.treeSize })
        .expect(200);
      expectMatchesSchema(res, 'GET /transparency/proof');
      const { leafIndex, inclusionProof, treeHead } = res.body;
      expect(inclusionHolds(tokenLeafHex(token), leafIndex, last.treeSize, inclusionProof, last.rootHash)).toBe(true);
      expect(treeHead.jws).toBe((await sth()).jws);
    }
    expect(
      new Set(
        await Promise.all(
          tokens.map(async (token) => (await e2e.http.get('/transparency/proof').query({ leaf: tokenLeafHex(token) })).body.leafIndex),
        ),
      ).size,
    ).toBe(tokens.length);
    for (const [i, older] of heads.entries()) {
      for (const newer of heads.slice(i)) {
        const res = await e2e.http.get('/transparency/consistency').query({ from: older.treeSize, to: newer.treeSize }).expect(200);
        expectMatchesSchema(res, 'GET /transparency/consistency');
        expect(consistencyHolds(older.treeSize, newer.treeSize, res.body.consistencyProof, older.rootHash, newer.rootHash)).toBe(true);
      }
    }
  });

  it('should answer bad proof requests with problem details', async () => {
    const { treeSize } = await sth();
    expect(expectValidationProblem(await e2e.http.get('/transparency/proof').query({ leaf: 'zz' }))).toEqual(['/leaf']);
    expect(expectValidationProblem(await e2e.http.get('/transparency/proof').query({ leaf: 'a'.repeat(64), size: '-1' }))).toEqual([
      '/size',
    ]);
    expectProblem(await e2e.http.get('/transparency/proof').query({ leaf: 'a'.repeat(64) }), 404, 'leaf_not_found');
    expectProblem(
      await e2e.http.get('/transparency/proof').query({ leaf: 'a'.repeat(64), size: treeSize + 1 }),
      400,
      'tree_size_unavailable',
    );
    expect(new Set(expectValidationProblem(await e2e.http.get('/transparency/consistency').query({ from: 1 })))).toEqual(new Set(['/to']));
    expectProblem(await e2e.http.get('/transparency/consistency').query({ from: 2, to: 1 }), 400, 'tree_size_unavailable');
    expectProblem(await e2e.http.get('/transparency/consistency').query({ from: 1, to: treeSize + 1 }), 400, 'tree_size_unavailable');
  });

  it('should give a bundle that verifies offline, part by part, and whose changed byte in any part fails naming it', async () => {
    const sessionId = await completeSimulatorSession(e2e.app, e2e.clock, e2e.key);
    // Not yet published: the bundle appends the queued leaf itself.
    const bundle = await bundleOf(sessionId);
    expect(bundle).toMatchObject({
      format: 'eidgw-evidence-bundle/1',
      sessionId,
      evidence: { signature: expect.any(String), ocspResponse: expect.any(String) },
    });
    const verdict = await verifyBundle(bundle);
    expect(verdict).toMatchObject({ valid: true, result: { sessionId, status: 'complete' }, evidenceVerification: { status: 'verified' } });
    expect(verdict.checks.map((check) => check.part).sort()).toEqual([
      'evidence',
      'format',
      'inclusionProof',
      'jwks',
      'resultToken',
      'sessionId',
      'treeHead',
      'verificationReport',
    ]);
    expect(
      inclusionHolds(
        tokenLeafHex(bundle.resultToken),
        bundle.transparency.leafIndex,
        bundle.transparency.treeSize,
        bundle.transparency.inclusionProof,
        (await sth()).rootHash,
      ),
    ).toBe(true);

    // One byte in the middle of each part, and the verdict names that part, and only that part.
    const flip = (text: string) => {
      const at = Math.floor(text.length / 2);
      const replacement = text[at] === 'A' ? 'B' : 'A';
      return text.slice(0, at) + replacement + text.slice(at + 1);
    };
    // A hex digit for another (the proof's hashes are lowercase hex: 'A' lowercased could be the 'a' it replaced).
    const flipHex = (hex: string) => {
      const at = Math.floor(hex.length / 2);
      return hex.slice(0, at) + (parseInt(hex[at], 16) ^ 1).toString(16) + hex.slice(at + 1);
    };
    const changed: [BundlePart, (b: Bundle) => void][] = [
      ['resultToken', (b) => (b.resultToken = flip(b.resultToken))],
      ['jwks', (b) => (b.jwks.keys[0].x = flip(b.jwks.keys[0].x!))],
      ['evidence', (b) => (b.evidence.signature = flip(b.evidence.signature))],
      ['evidence', (b) => (b.evidence.ocspResponse = flip(b.evidence.ocspResponse))],
      ['verificationReport', (b) => (b.verificationReport = flip(b.verificationReport))],
      ['treeHead', (b) => (b.transparency.treeHead.jws = flip(b.transparency.treeHead.jws))],
      ['inclusionProof', (b) => (b.transparency.inclusionProof[0] = flipHex(b.transparency.inclusionProof[0]))],
      ['inclusionProof', (b) => (b.transparency.leafIndex += 1)],
      ['sessionId', (b) => (b.sessionId = flip(b.sessionId as string))],
    ];
    for (const [part, change] of changed) {
      const copy = structuredClone(bundle);
      change(copy);
      const result = await verifyBundle(copy);
      expect({
        part,
        valid: result.valid,
        failed: [...new Set(result.checks.filter((check) => !check.ok).map((check) => check.part))],
      }).toEqual({
        part,
        valid: false,
        // A broken key takes the signatures made with it along (all of them, here: one key signs all).
        failed: part === 'jwks' ? ['jwks', 'resultToken', 'verificationReport', 'treeHead'] : [part],
      });
    }

    // The command line, reading the file: exit 0 for the bundle, 1 naming the part for a changed one.
    const dir = await mkdtemp(join(tmpdir(), 'eidgw-bundle-'));
    try {
      await writeFile(join(dir, 'bundle.json'), JSON.stringify(bundle));
      expect(await runCli(['verify-bundle', join(dir, 'bundle.json')])).toMatchObject({ exitCode: 0, output: { valid: true } });
      const text = JSON.stringify(bundle, null, 2);
      const at = text.indexOf(bundle.evidence.signature) + 40;
      await writeFile(join(dir, 'changed.json'), text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1));
      const failed = await runCli<{ valid: boolean; checks: { part: string; ok: boolean }[] }>([
        'verify-bundle',
        join(dir, 'changed.json'),
      ]);
      expect(failed.exitCode).toBe(1);
      expect(failed.output.checks.filter((check) => !check.ok).map((check) => check.part)).toContain('evidence');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('should keep proving a purged session: a fresh inclusion proof against a later head, and a consistency proof from the bundled one', async () => {
    const sessionId = await completeSimulatorSession(e2e.app, e2e.clock, e2e.key);
    const bundle = await bundleOf(sessionId);
    for (let i = 0; i < 3; i++) await completeSimulatorSession(e2e.app, e2e.clock, e2e.key);
    await publish();
    e2e.clock.advance(3_600_000);
    await e2e.app.get(SessionPiiPurgeJob).purgeExpiredPersonalData();
    expectProblem(await e2e.http.get(`/api/v1/sessions/${sessionId}/bundle`).set('x-api-key', e2e.key), 410, 'evidence_purged');

    // What the RP kept (the bundle) and what anyone may fetch after the purge.
    const later = await sth();
    expect(later.treeSize).toBeGreaterThan(bundle.transparency.treeSize);
    const proof = (await e2e.http.get('/transparency/proof').query({ leaf: bundle.transparency.leafHash }).expect(200)).body;
    expect(await verifyBundle(bundle, { proof })).toMatchObject({ valid: true, treeHead: { treeSize: later.treeSize } });
    const old = bundle.transparency.treeHead as unknown as { treeSize: number; rootHash: string };
    const consistency = (await e2e.http.get('/transparency/consistency').query({ from: old.treeSize, to: later.treeSize }).expect(200))
      .body;
    expect(consistencyHolds(old.treeSize, later.treeSize, consistency.consistencyProof, old.rootHash, later.rootHash)).toBe(true);
  });

  it("should scope bundles to the key's team and environment, give them to the team's members, and refuse a pending session", async () => {
    const sessionId = await completeSimulatorSession(e2e.app, e2e.clock, e2e.key);
    const other = await createTeamWithKey(e2e.app);
    const live = await createTeamWithKey(e2e.app, { environment: 'live' });
    expectProblem(await e2e.http.get(`/api/v1/sessions/${sessionId}/bundle`).set('x-api-key', other.key), 404, 'session_not_found');
    expectProblem(await e2e.http.get(`/api/v1/sessions/${sessionId}/bundle`).set('x-api-key', live.key), 404, 'session_not_found');
    expectProblem(await e2e.http.get(`/api/v1/sessions/not-a-uuid/bundle`).set('x-api-key', e2e.key), 404, 'session_not_found');
    const noRead = await createTeamWithKey(e2e.app, { scopes: ['sessions:write'] });
    expectProblem(await e2e.http.get(`/api/v1/sessions/${sessionId}/bundle`).set('x-api-key', noRead.key), 403, 'insufficient_scope');

    const user = await e2e.app.get(UsersService).create({ teamId: e2e.team.id, email: 'bundle@example.com' });
    const token = (await e2e.app.get(TokensService).issue({ userId: user.id, teamId: e2e.team.id, clientId: 'test' })).token;
    const res = await e2e.http.get(`/api/v1/sessions/${sessionId}/bundle`).set('authorization', `Bearer ${token}`).expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect((await verifyBundle(res.body)).valid).toBe(true);

    const pending = await e2e.http
      .post('/api/v1/auth/simulator/start')
      .set('x-api-key', e2e.key)
      .send({ endUserIp: '192.0.2.1' })
      .expect(200);
    expectProblem(
      await e2e.http.get(`/api/v1/sessions/${pending.body.sessionId}/bundle`).set('x-api-key', e2e.key),
      409,
      'session_not_final',
    );
  });
});
