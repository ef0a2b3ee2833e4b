// Every line the app's one pino logger writes (request lines and the services' Nest Logger calls),
// kept in memory instead of stdout: the same logger, serializers and redaction as production.
import type { INestApplicationContext } from '@nestjs/common';
import { pino } from 'pino';
import { PinoNestLogger } from '../../src/common/logging/pino-nest-logger.js';

export function captureLogs(app: INestApplicationContext): string[] {
  const lines: string[] = [];
  const root = app.get(PinoNestLogger).pino;
  Reflect.set(root, pino.symbols.streamSym, { write: (line: string) => void lines.push(line) });
  return lines;
}

const JWT_LIKE = /[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g;

/** The decoded header and payload of every JWT-looking token in a text (JWS compact form). */
export function decodedTokensIn(text: string): string[] {
  return [...text.matchAll(JWT_LIKE)].flatMap(([token]) =>
    token
      .split('.')
      .slice(0, 2)
      .map((part) => Buffer.from(part, 'base64url').toString('utf8')),
  );
}
