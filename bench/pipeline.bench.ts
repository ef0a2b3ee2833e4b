// What Nest's request pipeline costs before any of the service's own work (docs/performance.md, "The
// pipeline every request pays"): a bare Fastify route, the same route in a bare Nest app, then that
// Nest app with one global piece of each kind the service registers (a guard, a pipe, an interceptor)
// that does nothing. CPU per request through fastify.inject (no socket), interleaved rounds in one
// process. Run: npx nest build && node dist/bench/pipeline.bench.js.
import 'reflect-metadata';
import { Controller, Get, Injectable, Module, Param, type CanActivate, type NestInterceptor, type PipeTransform } from '@nestjs/common';
import type { CallHandler, ExecutionContext, Provider } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR, APP_PIPE, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Observable } from 'rxjs';
import { printSection } from './lib/report.js';

const REQUESTS = Number(process.env.REQUESTS ?? 20_000);
const ROUNDS = 5;
const URL = '/api/v1/auth/0b7e9b1e-6f0c-4d8e-9a44-3f0e9d3c2a11/poll';

@Controller()
class PollController {
  @Get('api/v1/auth/:sessionId/poll')
  poll(@Param('sessionId') sessionId: string) {
    return { sessionId, status: 'pending' };
  }
}

@Injectable()
class PassGuard implements CanActivate {
  canActivate(): boolean {
    return true;
  }
}

@Injectable()
class PassPipe implements PipeTransform {
  transform(value: unknown): unknown {
    return value;
  }
}

@Injectable()
class PassInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle();
  }
}

type Inject = (url: string) => Promise<unknown>;

async function bareFastify(): Promise<Inject> {
  const fastify: FastifyInstance = Fastify();
  fastify.get('/api/v1/auth/:sessionId/poll', async (request) => ({
    sessionId: (request.params as { sessionId: string }).sessionId,
    status: 'pending',
  }));
  await fastify.ready();
  return (url) => fastify.inject({ method: 'GET', url });
}

async function nestWith(providers: Provider[]): Promise<Inject> {
  @Module({ controllers: [PollController], providers })
  class BenchModule {}
  const app = await NestFactory.create<NestFastifyApplication>(BenchModule, new FastifyAdapter(), { logger: false });
  await app.init();
  const fastify = app.getHttpAdapter().getInstance();
  await fastify.ready();
  return (url) => fastify.inject({ method: 'GET', url });
}

/** CPU microseconds (user + system) per request. */
async function measure(inject: Inject, requests: number): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < requests; i++) await inject(URL);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / requests;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  const variants: [string, Inject][] = [
    ['bare Fastify route', await bareFastify()],
    ['bare Nest route (Fastify adapter)', await nestWith([])],
    ['Nest + a global guard', await nestWith([{ provide: APP_GUARD, useClass: PassGuard }])],
    ['Nest + a global pipe', await nestWith([{ provide: APP_PIPE, useClass: PassPipe }])],
    ['Nest + a global interceptor', await nestWith([{ provide: APP_INTERCEPTOR, useClass: PassInterceptor }])],
  ];
  for (const [, inject] of variants) await measure(inject, 2_000); // warm-up
  const samples = variants.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    // Each round in another order, so no variant always runs first.
    const order = variants.map((_, i) => (i + round) % variants.length);
    for (const i of order) samples[i].push(await measure(variants[i][1], REQUESTS));
  }
  const bare = median(samples[1]);
  const rows = variants.map(([name], i) => {
    const cost = median(samples[i]);
    return `| ${name} | ${cost.toFixed(1)} µs | ${i < 2 ? '' : `${cost >= bare ? '+' : '−'}${Math.abs(cost - bare).toFixed(1)} µs`} |`;
  });
  await printSection('Nest pipeline pieces', [
    `Nest's pipeline, a no-op of each kind, median of ${ROUNDS} interleaved rounds of ${REQUESTS} requests (fastify.inject, Node ${process.version}):`,
    '',
    '| route | CPU per request | over the bare Nest route |',
    '|---|---:|---:|',
    ...rows,
    '',
    `Bare Nest route / bare Fastify route: ${(median(samples[1]) / median(samples[0])).toFixed(2)}×.`,
  ]);
}

void main().then(() => process.exit(0));
