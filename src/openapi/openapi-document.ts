import { STATUS_CODES } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, getSchemaPath, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { ALL_PROBLEMS, problemExample, problemExampleName } from '../common/problem-details/api-problems.decorator.js';
import { ProblemDto } from '../common/problem-details/problem.dto.js';
import { DOCUMENTED_WEBHOOK_EVENTS, WebhookEventDto } from '../sessions/api/dto/session-webhook-event.dto.js';

/**
 * The OpenAPI 3.1 document: the contract RPs generate clients from (docs/api.md "OpenAPI"). Built
 * from the controllers' decorators; openapi.json in the repository is this document, checked in CI.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('eid-gateway')
    .setDescription(
      'National e-ID sessions, rotating QR codes and signed webhooks for relying parties. Errors are RFC 9457 problem details with a machine-readable `code`.',
    )
    .setVersion('1')
    .setLicense('Proprietary', 'https://example.com/eid-gateway/license')
    .addServer('/', 'The instance serving this document')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-key', description: 'An API key (`eidk_test_…` or `eidk_live_…`).' }, 'apiKey')
    .addApiKey(
      { type: 'apiKey', in: 'query', name: 'key', description: 'The API key as `?key=`, for experiments; prefer the header.' },
      'apiKeyQuery',
    )
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: "A team member's token from login-otp-validate." },
      'bearer',
    )
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    extraModels: [ProblemDto, WebhookEventDto],
    // `SessionsController_poll` → `sessions_poll`: stable names for generated clients.
    operationIdFactory: (controller: string, method: string) =>
      `${controller.replace(/Controller$/, '').replace(/^./, (c) => c.toLowerCase())}_${method}`,
  });
  document.components = {
    ...document.components,
    examples: Object.fromEntries(
      ALL_PROBLEMS.map((problem) => [problemExampleName(problem), { summary: problem, value: problemExample(problem) }]),
    ),
  };
  document.webhooks = webhooks();
  // Routes without a credential say so explicitly (no credential rather than an unstated one).
  for (const path of Object.values(document.paths)) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const operation = path[method];
      if (!operation) continue;
      operation.security ??= [];
      // A success answer without its own description gets the status text ("OK", "Created").
      for (const [status, response] of Object.entries(operation.responses)) {
        if (response && 'description' in response && !response.description) response.description = STATUS_CODES[Number(status)] ?? status;
      }
    }
  }
  return toOpenApi31(document);
}

function webhooks(): NonNullable<OpenAPIObject['webhooks']> {
  const header = (name: string, description: string, example: string) => ({
    name,
    in: 'header',
    required: true,
    description,
    schema: { type: 'string' },
    example,
  });
  const parameters = [
    header('webhook-id', 'The same on every attempt and redelivery of a message: deduplicate on it.', 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W'),
    header('webhook-timestamp', 'Unix seconds of this attempt; refuse one more than 5 minutes from your clock.', '1795255212'),
    header(
      'webhook-signature',
      '`v1,<base64 HMAC-SHA256(secret, id + "." + timestamp + "." + raw body)>`; two entries, space-separated, for 24 hours after a secret rotation.',
      'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
    ),
  ];
  return Object.fromEntries(
    DOCUMENTED_WEBHOOK_EVENTS.map(({ type, summary }) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replaceAll('.', '_')}`,
          summary,
          description: 'Signed as Standard Webhooks (docs/webhooks.md): verify the raw body before parsing it.',
          tags: ['webhooks'],
          security: [],
          parameters,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { allOf: [{ $ref: getSchemaPath(WebhookEventDto) }, { properties: { type: { const: type } } }] },
              },
            },
          },
          responses: {
            '200': { description: 'Any 2xx acknowledges the message; anything else is retried (410 Gone disables the endpoint).' },
          },
        },
      },
    ]),
  ) as NonNullable<OpenAPIObject['webhooks']>;
}

/** OpenAPI 3.1 spells `nullable: true` as a `null` type (JSON Schema 2020-12). */
export function toOpenApi31<T>(node: T): T {
  if (Array.isArray(node)) return node.map(toOpenApi31) as T;
  if (node === null || typeof node !== 'object') return node;
  const { nullable, ...rest } = node as Record<string, unknown>;
  const converted = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, toOpenApi31(value)]));
  if (nullable === true && typeof converted.type === 'string') {
    converted.type = [converted.type, 'null'];
    if (Array.isArray(converted.enum)) converted.enum = [...(converted.enum as unknown[]), null];
  }
  return converted as T;
}
