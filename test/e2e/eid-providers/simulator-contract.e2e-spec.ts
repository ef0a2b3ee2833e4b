import { useE2eApp } from '../../support/e2e.js';
import { providerContract } from '../../support/provider-contract.js';

describe('Simulator provider', () => {
  const e2e = useE2eApp({ stopBackgroundJobs: true, withKey: true, freezeClock: true });
  // The simulated app reads the QR on the screen, as a phone would (docs/api.md, "Simulator").
  const scan = async (sessionId: string, action: 'approve' | 'cancel') => {
    const { qrData } = (await e2e.http.get(`/api/v1/auth/${sessionId}/qr`).set('x-api-key', e2e.key).expect(200)).body;
    await e2e.http.post('/api/v1/simulator/scan').send({ qrData, action }).expect(200);
  };

  providerContract(() => ({
    provider: 'simulator',
    e2e,
    collectMs: 2_500,
    approve: (sessionId) => scan(sessionId, 'approve'),
    decline: (sessionId) => scan(sessionId, 'cancel'),
    verifiedEvidence: true,
  }));
});
