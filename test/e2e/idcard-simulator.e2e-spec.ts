import { useE2eApp } from '../support/e2e.js';
import { expectProblem } from '../support/problem.js';
import { VERIFIED_EVIDENCE, verifyResultToken } from '../support/result-token.js';

describe('The simulator digital ID card: its app shows the card, its verify answers with a XAdES of its test CA', () => {
  const e2e = useE2eApp({ withKey: true, freezeClock: true });

  /** The holder taps "Show ID card" in the simulated app: the code its QR carries. */
  const showIdCard = async (personalNumber = '199001011239'): Promise<string> => {
    const page = await e2e.http.post('/simulator/app/idcard').type('form').send({ personalNumber }).expect(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    const code = /data-qr-code="(BANKIDF\.[^"]+)"/.exec(page.text)?.[1];
    expect(page.text).toContain('<svg');
    return code!;
  };
  const verify = (qrCode: string) => e2e.http.post('/api/v1/idcard/simulator/verify').set('x-api-key', e2e.key).send({ qrCode });

  it('should offer "Show ID card" on the app page opened by itself', async () => {
    const home = await e2e.http.get('/simulator/app').expect(200);

    expect(home.text).toContain('Show ID card');
  });

  it('should verify a shown card once: the holder, both signatures verified against the simulator CA, a result token', async () => {
    const qrCode = await showIdCard('200001151234');

    const answer = (await verify(qrCode).expect(200)).body;

    expect(answer).toMatchObject({
      provider: 'simulator',
      operation: 'idcard',
      channel: 'counter',
      status: 'complete',
      user: { personalNumber: '200001151234', givenName: 'Tess', surname: 'Testsson', age: expect.any(Number) },
      verification: { verificationId: expect.any(String), verifiedAt: e2e.clock.now().toISOString() },
      authentication: { identifiedAt: expect.any(String), orderRef: expect.any(String) },
      evidence: { verification: VERIFIED_EVIDENCE },
    });
    await verifyResultToken(e2e.http, answer.resultToken, e2e.team.id);
    expectProblem(await verify(qrCode), 409, 'qr_expired');
  });

  it('should refuse a card past its 30 s with 409 qr_expired', async () => {
    const qrCode = await showIdCard();
    e2e.clock.advance(30_000);

    expectProblem(await verify(qrCode), 409, 'qr_expired');
  });

  it('should refuse a code no card of the simulator carries with 409 qr_expired', async () => {
    expectProblem(await verify(`BANKIDF.${crypto.randomUUID()}.${'0'.repeat(32)}`), 409, 'qr_expired');
  });
});
