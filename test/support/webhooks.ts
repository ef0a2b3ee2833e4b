import type { INestApplicationContext } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { SessionSettlement } from '../../src/sessions/settlement/session-settlement.js';
import { WebhookDeliveriesService, type DeliveryView } from '../../src/webhooks/webhook-deliveries.service.js';
import { WebhookEndpointsService, type CreateEndpointInput } from '../../src/webhooks/webhook-endpoints.service.js';
import type { TestClock } from './test-clock.js';

/** Waits for an effect of background work (a delivery recorded); fails after `timeoutMs`. */
export async function waitUntil<T>(probe: () => Promise<T | undefined | null | false>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function createEndpoint(app: INestApplicationContext, teamId: string, input: CreateEndpointInput) {
  return app.get(WebhookEndpointsService).create(teamId, input);
}

/**
 * Starts a simulator session, approves it as the end user would, and lets the background
 * collector's code path see the outcome: the way a webhook fires without anyone polling.
 */
export async function completeSimulatorSession(
  app: NestFastifyApplication,
  clock: TestClock,
  key: string,
  options: { metadata?: Record<string, string>; personalNumber?: string; action?: 'approve' | 'cancel' } = {},
): Promise<string> {
  const http = request(app.getHttpServer());
  const started = await http
    .post('/api/v1/auth/simulator/start')
    .set('x-api-key', key)
    .send({ endUserIp: '192.0.2.10', ...(options.metadata ? { metadata: options.metadata } : {}) })
    .expect(200);
  await http
    .post('/api/v1/simulator/scan')
    .send({
      autoStartToken: started.body.autoStartToken,
      personalNumber: options.personalNumber ?? '198507099805',
      action: options.action ?? 'approve',
    })
    .expect(200);
  clock.advance(2_500);
  await app.get(SessionSettlement).collectDue();
  return started.body.sessionId as string;
}

/** The delivery log rows of one session, as the team sees them. */
export async function deliveriesOf(app: INestApplicationContext, teamId: string, sessionId: string): Promise<DeliveryView[]> {
  const page = await app.get(WebhookDeliveriesService).list(teamId, {
    startRow: 0,
    endRow: 100,
    filterModel: { sessionId: { filterType: 'text', type: 'equals', filter: sessionId } },
  });
  return page.rows;
}

/**
 * The one delivery of a session once `ready` holds for it. A row and its attempts are two reads, so
 * a read racing the dispatcher can pair an older row with newer attempts; two equal reads in a row
 * cannot (the second began after the first had seen the newer attempts).
 */
export function waitForDelivery(
  app: INestApplicationContext,
  teamId: string,
  sessionId: string,
  ready: (d: DeliveryView) => boolean,
  what: string,
) {
  let previous = '';
  return waitUntil(async () => {
    const [delivery] = await deliveriesOf(app, teamId, sessionId);
    const [seen, current] = [previous, JSON.stringify(delivery)];
    previous = current;
    return delivery && ready(delivery) && seen === current ? delivery : undefined;
  }, what);
}
