import { useE2eApp } from '../../support/e2e.js';
import { expectValidationProblem } from '../../support/problem.js';

// docs/protection.md, "Linear time": what the input guard reads of a sign body (up to 384 KiB) is held
// to the size of an ordinary body; the rest is refused, or skipped as inert, before the guard.
const PROSE = 'Jag godkänner avtalet för Exempel AB, order A-100000 (1 249,00 kr). ';
/** Prose of exactly `bytes` UTF-8 bytes: spaces and brackets make the guard read every character of it. */
const proseOfBytes = (bytes: number, ending = '') => {
  let text = '';
  while (Buffer.byteLength(text + PROSE) + Buffer.byteLength(ending) <= bytes) text += PROSE;
  text += 'x'.repeat(bytes - Buffer.byteLength(text) - Buffer.byteLength(ending));
  return text + ending;
};
const ATTACK = " ' or 1=1--";

describe('Sign bodies and the input guard', () => {
  const e2e = useE2eApp({ withKey: { plan: 'pro' } });
  const signStart = (body: object, key?: string) => {
    const request = e2e.http.post('/api/v1/sign/simulator/start');
    return (key ? request.set('x-api-key', key) : request).send({ endUserIp: '192.0.2.10', ...body });
  };

  it('should start a signature of a real 30,000-byte text, which the guard reads in full', async () => {
    const text = proseOfBytes(30_000);
    expect(Buffer.byteLength(text)).toBe(30_000);
    await signStart({ userVisibleData: text }, e2e.key).expect(200);
    // The attack sits at the text's last bytes: refused by the guard, before authentication.
    const attack = await signStart({ userVisibleData: proseOfBytes(30_000, ATTACK) }).expect(400);
    expect(attack.body.detail).toBe('The input guard refused the request: its body looks like SQL injection.');
  });

  it('should refuse oversized unknown content before the guard reads it, naming the size, without a key', async () => {
    const pad = `${proseOfBytes(300_000)}${ATTACK}`;
    for (const body of [
      { userVisibleData: 'Avtal', notAField: pad },
      { userVisibleData: 'Avtal', metadata: { pad } },
    ]) {
      const res = await signStart(body);
      expect(expectValidationProblem(res)).toEqual(['']);
      expect(JSON.stringify(res.body)).toContain('at most 16384 bytes as JSON');
    }
  });

  it('should refuse hidden data that is not base64 before the guard, and not read base64 hidden data', async () => {
    const notBase64 = await signStart({ userVisibleData: 'Avtal', userNonVisibleData: `${proseOfBytes(150_000)}${ATTACK}` });
    expect(expectValidationProblem(notBase64)).toEqual(['/userNonVisibleData']);
    // Base64 the service only decodes and forwards: the guard's path signatures would match `/etc/passwd/`, and do not run on it.
    await signStart({ userVisibleData: 'Avtal', userNonVisibleData: '/etc/passwd/'.repeat(16_000) }, e2e.key).expect(200);
    const elsewhere = await signStart({ userVisibleData: 'Avtal', notAField: '/etc/passwd/' }, e2e.key).expect(400);
    expect(elsewhere.body.detail).toBe('The input guard refused the request: its body looks like path traversal.');
  });
});
