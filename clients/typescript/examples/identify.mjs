// Identify someone with the simulator, wait for the outcome and verify its result token.
//   npm run build:clients && EID_API_KEY=$(cat data/dev-api-key) node clients/typescript/examples/identify.mjs
// Then open the printed launchUrl (the simulator's BankID app) and tap "Identify".
// In your own project: npm install ./clients/typescript, and import from '@eid-gateway/client'.
import { EidGateway, EidGatewayError } from '../dist/index.js';

const gateway = new EidGateway({
  apiKey: process.env.EID_API_KEY,
  environment: 'test',
  baseUrl: process.env.EID_GATEWAY_URL ?? 'http://localhost:3000',
});

try {
  const session = await gateway.sessions.startAuth('simulator', { endUserIp: '192.0.2.10', metadata: { orderId: 'A-1001' } });
  console.log(`Open the simulated app and approve: ${session.launchUrl}`);
  console.log(`Or show the rotating QR on a screen: ${session.kioskUrl}`);

  const result = await gateway.sessions.waitForResult(session.sessionId, {
    signal: AbortSignal.timeout(5 * 60_000),
    onUpdate: (state) => console.log(`${state.status} ${state.hintCode ?? ''} ${state.userMessage?.en ?? ''}`),
  });
  if (result.status === 'complete') {
    const proof = await gateway.verifyResultToken(result.resultToken);
    console.log(`Identified ${result.user?.name} (${result.user?.personalNumber}); the token says ${proof.status} for ${proof.sub}`);
  } else {
    console.log(`Failed: ${result.hintCode}`);
  }
} catch (error) {
  if (!(error instanceof EidGatewayError)) throw error;
  console.error(`eid-gateway refused: ${error.status ?? '-'} ${error.code} ${error.detail ?? error.message}`);
  process.exitCode = 1;
}
