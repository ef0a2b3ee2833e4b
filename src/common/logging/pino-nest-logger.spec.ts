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

  it('should write nothing below its level', () => {
    const { logger, lines } = capture('warn');
    logger.log({ purged: 3 }, 'Erased', 'Job');
    logger.debug('detail');
    expect(lines).toEqual([]);
  });
});
