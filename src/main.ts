import 'reflect-metadata';
import cluster from 'node:cluster';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module.js';
import { configureApp, createFastifyAdapter } from './app.setup.js';
import { runClusterPrimary } from './cluster.js';
import { ConfigValidationError } from './config/env.validation.js';
import { validatedEnv } from './app.env.js';

async function bootstrap(): Promise<void> {
  const env = validatedEnv();
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, createFastifyAdapter(env), { bufferLogs: true });
  await configureApp(app, { shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT });
  await app.listen({ port: env.PORT, host: '0.0.0.0' });
  const database = env.DATABASE_URL ? 'PostgreSQL' : `embedded PostgreSQL in ${env.DATA_DIR}`;
  new Logger('Bootstrap').log(`eid-gateway listening on port ${env.PORT} (${database}); OpenAPI at /docs`);
}

async function main(): Promise<void> {
  const { WEB_CONCURRENCY } = validatedEnv();
  if (WEB_CONCURRENCY > 1 && cluster.isPrimary) runClusterPrimary(WEB_CONCURRENCY);
  else await bootstrap();
}

main().catch((error: unknown) => {
  // A bad configuration is the operator's to fix: say which variable and rule, without a stack trace.
  process.stderr.write(`${error instanceof ConfigValidationError ? error.message : String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
});
