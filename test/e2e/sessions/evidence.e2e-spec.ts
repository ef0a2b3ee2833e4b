import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { EidProviderRegistry } from '../../../src/eid-providers/eid-provider.registry.js';
import { EvidenceVerifier } from '../../../src/eid-providers/shared/xml-evidence/evidence-verifier.js';
import { SimulatorEvidence } from '../../../src/eid-providers/simulator/simulator-evidence.provider.js';
import type { EvidenceSession } from '../../../src/eid-providers/eid-provider.js';
import { evidenceView, EvidenceService } from '../../../src/sessions/settlement/evidence.service.js';
import { evidenceSha256, ResultTokenSigner, type SessionResult } from '../../../src/tokens/result-token-signer.js';
import { createTestApp } from '../../support/create-test-app.js';
import { useE2eApp } from '../../support/e2e.js';
import { NO_IP_BLOCKING } from '../../support/protection-backends.js';

const ISSUER = 'http://localhost:3000';
const USER = { personalNumber: '199001012393', name: 'Test Testsson', givenName: 'Test', surname: 'Testsson' };

describe('Evidence: the simulator CA, verification in the app and signed result tokens', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'eidgw-evidence-'));
  });
  const e2e = useE2eApp({ env: () => ({ ...NO_IP_BLOCKING, DATA_DIR: dataDir }), freezeClock: true });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  const result = (overrides: Partial<SessionResult> = {}): SessionResult => ({
    teamId: 'a4d9e7c2-5b1f-4c3e-9d2a-1f0e8b7c6d5a',
    sessionId: 'b5e0f8d3-6c2a-4d4f-8e3b-2a1f9c8d7e6b',
    environment: 'test',
    provider: 'simulator',
    operation: 'sign',
    channel: 'qr',
    status: 'complete',
    user: USER,
    device: { ipAddress: '203.0.113.7' },
    completedAt: new Date('2026-11-24T04:00:00.000Z'),
    ...overrides,
  });
  // A provider's evidence profile, as the session core reaches it: through the registry.
  const profileOf = (provider: string) => e2e.app.get(EidProviderRegistry).profileOf(provider)!.evidence!;
  const sessionOf = (id: string, provider: string, more: Partial<EvidenceSession> = {}): EvidenceSession => ({
    id,
    provider,
    environment: 'test',
    operation: 'auth',
    orderRef: 'order-1',
    ...more,
  });
  const assess = (session: EvidenceSession, evidence: Record<string, unknown> | undefined) =>
    e2e.app.get(EvidenceService).assess(session, profileOf(session.provider), evidence, completedNow());
  const completedNow = () => ({ personalNumber: USER.personalNumber, at: e2e.clock.now() });
  const authCompletion = () => ({ operation: 'auth' as const, ...completedNow() });
  const jwks = async (): Promise<JSONWebKeySet> => (await e2e.http.get('/.well-known/jwks.json').expect(200)).body;
  const verify = async (token: string) =>
    jwtVerify(token, createLocalJWKSet(await jwks()), { issuer: ISSUER, typ: 'eidgw-result+jwt', algorithms: ['ES256'] });

  it('should sign a result that verifies with jose against the published JWKS', async () => {
    const simulator = e2e.app.get(SimulatorEvidence);
    const evidence = await simulator.issue({ user: USER, funcId: 'Signing', userVisibleData: 'SGVq', now: e2e.clock.now() });
    const token = await e2e.app.get(ResultTokenSigner).sign(result({ signature: evidence.signature }));

    const { payload, protectedHeader } = await verify(token);
    expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'eidgw-result+jwt' });
    expect((await jwks()).keys.map((k) => k.kid)).toContain(protectedHeader.kid);
    expect(payload).toMatchObject({
      iss: ISSUER,
      aud: 'a4d9e7c2-5b1f-4c3e-9d2a-1f0e8b7c6d5a',
      sub: 'b5e0f8d3-6c2a-4d4f-8e3b-2a1f9c8d7e6b',
      environment: 'test',
      provider: 'simulator',
      operation: 'sign',
      channel: 'qr',
      status: 'complete',
      user: USER,
      device: { ipAddress: '203.0.113.7' },
      completedAt: '2026-11-24T04:00:00.000Z',
      evidenceSha256: evidenceSha256(evidence.signature),
    });
    expect(payload.evidenceSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(typeof payload.iat).toBe('number');
    expect(typeof payload.jti).toBe('string');
  });

  it('should leave out what a failed session does not have', async () => {
    const token = await e2e.app
      .get(ResultTokenSigner)
      .sign(result({ status: 'failed', hintCode: 'userCancel', user: undefined, device: undefined }));
    const { payload } = await verify(token);
    expect(payload).toMatchObject({ status: 'failed', hintCode: 'userCancel' });
    expect(payload).not.toHaveProperty('user');
    expect(payload).not.toHaveProperty('evidenceSha256');
  });

  it('should make a token whose claims were changed fail verification', async () => {
    const token = await e2e.app.get(ResultTokenSigner).sign(result({ status: 'failed', hintCode: 'userCancel', user: undefined }));
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, status: 'complete' })).toString('base64url');
    await expect(verify(`${header}.${forged}.${signature}`)).rejects.toThrow('signature verification failed');
    expect(decodeProtectedHeader(token).typ).toBe('eidgw-result+jwt');
  });

  it('should generate the simulator CA at first start into DATA_DIR and trust its evidence', async () => {
    expect((await stat(join(dataDir, 'simulator-ca.json'))).mode & 0o777).toBe(0o600);
    const simulator = e2e.app.get(SimulatorEvidence);
    const evidence = await simulator.issue({ user: USER, funcId: 'Identification', now: e2e.clock.now() });
    const verification = await e2e.app
      .get(EvidenceVerifier)
      .verify({ ...evidence, expected: {}, trustRoots: simulator.trustRoots, completion: authCompletion() });
    expect(verification).toMatchObject({
      status: 'verified',
      signatureValid: true,
      certificateTrusted: true,
      ocspStatus: 'good',
      signedDataMatches: true,
    });
  });

  it('should trust the simulator CA for simulator sessions of the test environment only', async () => {
    const evidence = await e2e.app.get(SimulatorEvidence).issue({ user: USER, funcId: 'Identification', now: e2e.clock.now() });
    const simulator = profileOf('simulator');
    expect(await simulator.verify({ ...evidence }, sessionOf('s-0', 'simulator'), completedNow())).toMatchObject({ status: 'verified' });
    expect(await simulator.verify({ ...evidence }, sessionOf('s-0', 'simulator', { environment: 'live' }), completedNow())).toMatchObject({
      status: 'failed',
      signatureValid: true,
      certificateTrusted: false,
    });
  });

  it('should keep the simulator CA across a restart, so stored evidence still verifies', async () => {
    const before = e2e.app.get(SimulatorEvidence).trustRoots;
    const evidence = await e2e.app.get(SimulatorEvidence).issue({ user: USER, funcId: 'Identification', now: e2e.clock.now() });
    const restarted = await createTestApp(e2e.env);
    try {
      const after = restarted.app.get(SimulatorEvidence).trustRoots;
      expect(after).toEqual(before);
      const verification = await restarted.app
        .get(EvidenceVerifier)
        .verify({ ...evidence, expected: {}, trustRoots: after, completion: authCompletion() });
      expect(verification.status).toBe('verified');
    } finally {
      await restarted.close();
    }
  });

  it('should store the evidence of a simulator completion with its verification, and show it without the raw parts', async () => {
    const visible = Buffer.from('Approve the transfer').toString('base64');
    const signed = await e2e.app
      .get(SimulatorEvidence)
      .issue({ user: USER, funcId: 'Signing', userVisibleData: visible, now: e2e.clock.now() });
    const session = sessionOf('s-1', 'simulator', { operation: 'sign', userVisibleData: visible });
    const stored = await assess(session, { bankIdIssueDate: '2024-03-01', risk: 'low', ...signed, unknownMember: 'dropped' });
    expect(stored).toMatchObject({
      bankIdIssueDate: '2024-03-01',
      risk: 'low',
      signature: signed.signature,
      ocspResponse: signed.ocspResponse,
    });
    expect(stored!.verification).toMatchObject({ status: 'verified', checkedAt: e2e.clock.now().toISOString() });
    expect(stored).not.toHaveProperty('unknownMember');
    expect(evidenceView(stored!, profileOf('simulator').rawMembers)).toEqual({
      bankIdIssueDate: '2024-03-01',
      risk: 'low',
      verification: stored!.verification,
    });
  });

  it('should fail the verification, and still store the evidence, when the session sent another text', async () => {
    const signed = await e2e.app
      .get(SimulatorEvidence)
      .issue({ user: USER, funcId: 'Signing', userVisibleData: 'SGVq', now: e2e.clock.now() });
    const session = sessionOf('s-2', 'simulator', { operation: 'sign', userVisibleData: 'SGVqIGTDpQ==' });
    const stored = await assess(session, { ...signed });
    expect(stored).toMatchObject({
      signature: signed.signature,
      verification: { status: 'failed', signatureValid: true, signedDataMatches: false },
    });
  });

  it('should not verify simulator evidence presented for a BankID session', async () => {
    const signed = await e2e.app.get(SimulatorEvidence).issue({ user: USER, funcId: 'Identification', now: e2e.clock.now() });
    // No BankID evidence roots are configured here, so nothing chains for a BankID session.
    const stored = await assess(sessionOf('s-3', 'bankid'), { ...signed });
    expect(stored!.verification).toMatchObject({ status: 'failed', certificateTrusted: false });
  });

  it('should keep evidence without a signature unverified, and no evidence as none', async () => {
    expect(await assess(sessionOf('s-4', 'simulator'), { bankIdIssueDate: '2024-03-01' })).toEqual({ bankIdIssueDate: '2024-03-01' });
    expect(await assess(sessionOf('s-5', 'simulator'), undefined)).toBeUndefined();
  });
});
