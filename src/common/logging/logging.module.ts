import type { IncomingMessage, ServerResponse } from 'node:http';
import { Module, RequestMethod } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { serverConfig, type ServerConfig } from '../../config/server.config.js';
import { redactUrl } from './redact-url.js';
import { requestIdOf } from './request-id.js';

/** JSON logs with a request id; credentials never reach a log line (SPEC 3.8). */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [serverConfig.KEY],
      useFactory: (config: ServerConfig) => ({
        // nestjs-pino's default route pattern does not match under Nest 12's Fastify adapter: name every route.
        forRoutes: [{ path: '{*splat}', method: RequestMethod.ALL }],
        pinoHttp: {
          level: config.logLevel,
          // Fastify's genReqId already chose the id and wrote it onto the request: reuse it.
          genReqId: (req: IncomingMessage) => requestIdOf(req),
          redact: {
            paths: [
              'req.headers["x-api-key"]',
              'req.headers.authorization',
              'req.headers.cookie',
              'res.headers["set-cookie"]',
              '*.qrStartSecret',
              '*.personalNumber',
            ],
            censor: '[redacted]',
          },
          serializers: {
            req: (req: { id: string; method: string; url: string; remoteAddress?: string }) => ({
              id: req.id,
              method: req.method,
              url: redactUrl(req.url),
              remoteAddress: req.remoteAddress,
            }),
          },
          customLogLevel: (_req: IncomingMessage, res: ServerResponse, error?: Error) =>
            error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
        },
      }),
    }),
  ],
})
export class LoggingModule {}
