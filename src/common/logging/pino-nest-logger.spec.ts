import { pino } from 'pino';
import { PinoNestLogger } from './pino-nest-logger.js';

describe(PinoNestLogger.name, () => {
  const capture = (level = 'info') => {
    const lines: Record<string, unknown>[] = [];
    const logger = new PinoNestLogger(pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line)) }));
    return { logger, lines };
  };

  it("should write a service's object and text with the logger's context, as Nest passes them", () => {
    const { logger, lines } = capture();
    logger.warn({ sessionId: 's-1' }, 'Collect failed', 'SessionsService');
    logger.log('plain text', 'Bootstrap');
    expect(lines).toEqual([
      expect.objectContaining({ level: 40, context: 'SessionsService', sessionId: 's-1', msg: 'Collect failed' }),
      expect.objectContaining({ level: 30, context: 'Bootstrap', msg: 'plain text' }),
    ]);
  });

  it("should keep an error's stack, whether given as an Error or as Nest's (message, stack, context)", () => {
    const { logger, lines } = capture();
    logger.error(new Error('boom'), 'Worker');
    logger.error('failed', 'Error: failed\n    at x', 'ExceptionHandler');
    expect(lines[0]).toMatchObject({
      level: 50,
      context: 'Worker',
      msg: 'boom',
      err: { message: 'boom', stack: expect.stringContaining('Error: boom') },
    });
    expect(lines[1]).toMatchObject({ level: 50, context: 'ExceptionHandler', msg: 'failed', stack: 'Error: failed\n    at x' });
  });

  it("should write only the class, message and stack of a service's { err }, never a driver error's SQL parameters", () => {
    const { logger, lines } = capture();
    // TypeORM's QueryFailedError carries the statement and its parameters as own properties.
    const driverError = Object.assign(new Error('duplicate key value'), {
      query: 'INSERT INTO ip_blocks (address) VALUES ($1)',
      parameters: ['203.0.113.9', 'eidk_test_secret'],
      driverError: { detail: 'Key (address)=(203.0.113.9) already exists.' },
    });
    logger.warn({ sessionId: 's-1', err: driverError }, 'Recording failed', 'IpBlocks');
    expect(lines[0]).toMatchObject({ sessionId: 's-1', err: { message: 'duplicate key value', stack: expect.any(String) } });
    expect(JSON.stringify(lines)).not.toMatch(/203\.0\.113\.9|eidk_test|INSERT INTO/);
  });

  it('should write nothing below its level', () => {
    const { logger, lines } = capture('warn');
    logger.log({ purged: 3 }, 'Erased', 'Job');
    logger.debug('detail');
    expect(lines).toEqual([]);
  });
});
