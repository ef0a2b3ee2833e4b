// The README's tour on the client: a session with its QR, the outcome and its proof, a signature, a
// signature on the phone, and a problem. Against `npm start`, from the repository's root:
//   npm run build:clients && node clients/typescript/examples/tour.mjs
// It reads the key `npm start` wrote to data/dev-api-key (or EID_API_KEY).
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { EidGateway, EidGatewayError } from '../dist/index.js';

const baseUrl = process.env.EID_GATEWAY_URL ?? 'http://localhost:3000';
const apiKey = process.env.EID_API_KEY ?? readFileSync('data/dev-api-key', 'utf8').trim();
const gateway = new EidGateway({ apiKey, environment: 'test', baseUrl });

// 1. Start a session with the simulator for the end user's IP address. The QR changes every second:
//    as data, as an image, or on a screen through the kiosk link (no API key reaches the screen).
const session = await gateway.sessions.startAuth('simulator', { endUserIp: '192.0.2.10' });
console.log('QR now:', (await gateway.sessions.qr(session.sessionId)).qrData);
writeFileSync('qr.png', await gateway.sessions.qrPng(session.sessionId));
writeFileSync('qr.svg', await gateway.sessions.qrSvg(session.sessionId));
console.log(`Kiosk (open in a browser): ${session.kioskUrl}`);

// 2. Play the end user: open the simulated BankID app and tap "Identify". The client polls every 2 s.
console.log(`The app (open in a browser, tap Identify): ${session.launchUrl}`);
const result = await gateway.sessions.waitForResult(session.sessionId, {
  onUpdate: (state) => console.log(`  ${state.status} ${state.hintCode ?? ''} ${state.userMessage?.en ?? ''}`),
});
console.log('Outcome:', result.status, result.user);

// 3. The result token proves the outcome to anyone with the service's public keys.
if (result.resultToken) console.log('Result token verified:', await gateway.verifyResultToken(result.resultToken));

// 4. A signature, and one on the phone; this time the script plays the app itself (the simulator's
//    routes take no key, as a phone has none).
const play = async (path, body) =>
  (
    await fetch(`${baseUrl}/api/v1/simulator/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  ).json();
const sign = await gateway.sessions.startSign('simulator', { endUserIp: '192.0.2.10', userVisibleData: 'Jag godkänner avtalet.' });
console.log('The app shows:', await play('scan', { autoStartToken: sign.autoStartToken }));
console.log('Signed:', (await gateway.sessions.waitForResult(sign.sessionId)).status);
const call = await gateway.sessions.startPhoneSign('simulator', {
  personalNumber: '198112189876',
  callInitiator: 'RP',
  userVisibleData: 'Jag godkänner flytten.',
});
console.log('The caller confirms the call:', await play('phone', { personalNumber: '198112189876' }));
console.log('Signed on the phone:', (await gateway.sessions.waitForResult(call.sessionId)).status);

// 5. Every refusal is an EidGatewayError carrying the problem details.
try {
  await gateway.sessions.poll(randomUUID());
} catch (error) {
  if (!(error instanceof EidGatewayError)) throw error;
  console.log('Refused:', error.status, error.code, error.detail);
}
