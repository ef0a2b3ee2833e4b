import Fastify from 'fastify';
import { requestHook, sendHook } from './sync-hooks.js';

describe('requestHook and sendHook', () => {
  const appWith = (onRequest: Parameters<typeof requestHook>[0], onSend: Parameters<typeof sendHook>[0]) => {
    const fastify = Fastify();
    fastify.addHook('onRequest', requestHook(onRequest));
    fastify.addHook('onSend', sendHook(onSend));
    fastify.setErrorHandler((error: Error, _request, reply) => reply.code(418).send({ refused: error.message }));
    fastify.get('/', async () => ({ ok: true }));
    return fastify;
  };

  it('should hand over at once on the synchronous path, and send what onSend answers', async () => {
    const order: string[] = [];
    const fastify = appWith(
      () => void order.push('request'),
      (_request, reply, payload) => (reply.header('x-seen', 'yes'), `${String(payload)}!`),
    );
    fastify.addHook('preHandler', async () => void order.push('handler'));
    const answer = await fastify.inject('/');
    expect([answer.statusCode, answer.headers['x-seen'], answer.body, order]).toEqual([200, 'yes', '{"ok":true}!', ['request', 'handler']]);
  });

  it('should wait for a promise and pass on what it settles with', async () => {
    const fastify = appWith(
      () => new Promise<void>((resolve) => setTimeout(resolve, 5)),
      async (_request, _reply, payload) => `${String(payload)}?`,
    );
    expect((await fastify.inject('/')).body).toBe('{"ok":true}?');
  });

  it.each([
    [
      'a throw',
      () => {
        throw new Error('blocked');
      },
    ],
    ['a rejection', () => Promise.reject(new Error('blocked'))],
  ])('should send %s to the error handler, and the route never runs', async (_name, work) => {
    const fastify = appWith(work, (_request, _reply, payload) => payload);
    let handled = 0;
    fastify.get('/other', async () => ++handled);
    const answer = await fastify.inject('/other');
    expect([answer.statusCode, answer.json(), handled]).toEqual([418, { refused: 'blocked' }, 0]);
  });
});
