import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

type SendDone = (error: Error | null, payload?: unknown) => void;

/**
 * A Fastify hook (onRequest, preValidation) whose work is synchronous on its common path: it hands
 * over to the next hook at once. An `async` hook costs every request a promise and a turn of the
 * microtask queue even when it does nothing, and every route runs every global hook
 * (docs/performance.md, "The pipeline every request pays"). Fastify sends what `work` throws, or the
 * promise it returns rejects with, to the error handler, as from an async hook.
 */
export function requestHook(
  work: (request: FastifyRequest, reply: FastifyReply) => void | Promise<void>,
): (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void {
  return (request, reply, done) => {
    const pending = work(request, reply);
    if (pending) pending.then(() => done(), done);
    else done();
  };
}

/** The same for onSend: `work` answers the payload to send, or a promise of it. */
export function sendHook(
  work: (request: FastifyRequest, reply: FastifyReply, payload: unknown) => unknown,
): (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: SendDone) => void {
  return (request, reply, payload, done) => {
    const next = work(request, reply, payload);
    if (next instanceof Promise) next.then((sent: unknown) => done(null, sent), done);
    else done(null, next);
  };
}
