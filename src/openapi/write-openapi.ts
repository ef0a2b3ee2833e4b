import 'reflect-metadata';
import { writeFile } from 'node:fs/promises';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from '../app.module.js';
import { createFastifyAdapter } from '../app.setup.js';
import { buildOpenApiDocument } from './openapi-document.js';

/**
 * `npm run openapi`: writes the OpenAPI document to openapi.json (or the path given), or with
 * `--stdout` prints it. Preview mode builds the module graph without instantiating anything, so no
 * database, port or secret is needed.
 */
async function main(): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule,
    createFastifyAdapter({ TRUST_PROXY: [], REQUEST_TIMEOUT: 10_000 }),
    {
      preview: true,
      logger: false,
    },
  );
  const text = `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`;
  const target = process.argv[2] ?? 'openapi.json';
  if (target === '--stdout') process.stdout.write(text);
  else await writeFile(target, text);
  await app.close();
}

await main();
