import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { PurgeJob } from './purge-job.js';

class ExamplePurgeJob extends PurgeJob {
  protected readonly subject = 'example rows';

  constructor(readonly purgeDue: () => Promise<number>) {
    super();
  }

  run(): Promise<number> {
    return this.purge();
  }
}

describe(PurgeJob.name, () => {
  let log: jest.SpiedFunction<Logger['log']>;
  let error: jest.SpiedFunction<Logger['error']>;

  beforeEach(() => {
    log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });

  afterEach(() => jest.restoreAllMocks());

  it('should answer how many rows went and log them under the job name', async () => {
    const job = new ExamplePurgeJob(async () => 3);
    expect(await job.run()).toBe(3);
    expect(log).toHaveBeenCalledWith({ purged: 3 }, 'Purged example rows');
    expect((job as unknown as { logger: Logger }).logger).toMatchObject({ context: 'ExamplePurgeJob' });
  });

  it('should log nothing when nothing was due', async () => {
    expect(await new ExamplePurgeJob(async () => 0).run()).toBe(0);
    expect(log).not.toHaveBeenCalled();
  });

  it('should log a failure without its driver details and answer 0, so the scheduler keeps going', async () => {
    const failure = Object.assign(new Error('connection lost'), { parameters: ['someone@example.com'] });
    expect(
      await new ExamplePurgeJob(async () => {
        throw failure;
      }).run(),
    ).toBe(0);
    const [fields, message] = error.mock.calls[0] as [{ err: object }, string];
    expect(message).toBe('Purging example rows failed; the next run tries again');
    expect(fields.err).toMatchObject({ type: 'Error', message: 'connection lost' });
    expect(JSON.stringify(fields)).not.toContain('someone@example.com');
  });

  it('should hold the shutdown until the run in flight has ended', async () => {
    let finish!: (rows: number) => void;
    const job = new ExamplePurgeJob(() => new Promise<number>((resolve) => (finish = resolve)));
    void job.run();
    let shutDown = false;
    const shutdown = job.beforeApplicationShutdown().then(() => (shutDown = true));
    await Promise.resolve();
    expect(shutDown).toBe(false);
    finish(1);
    await shutdown;
    expect(shutDown).toBe(true);
  });
});
