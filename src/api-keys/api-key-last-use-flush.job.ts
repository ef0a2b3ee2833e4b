import { Inject, Injectable, Optional, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { apiKeysConfig, type ApiKeysConfig } from '../config/api-keys.config.js';
import { ApiKeyLastUseService } from './api-key-last-use.service.js';

const INTERVAL_NAME = 'api-key-last-use-flush';

/** Writes the keys' last uses every API_KEY_LAST_USED_FLUSH_INTERVAL, and once more when the process stops. */
@Injectable()
export class ApiKeyLastUseFlushJob implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    private readonly lastUse: ApiKeyLastUseService,
    @Inject(apiKeysConfig.KEY) private readonly config: ApiKeysConfig,
    // Absent where the scheduler is not loaded (service-level tests, which drive the services themselves).
    @Optional() private readonly scheduler?: SchedulerRegistry,
  ) {}

  onApplicationBootstrap(): void {
    // A configured interval, so registered here rather than with @Interval; the registry still owns it (tests stop it).
    this.scheduler?.addInterval(
      INTERVAL_NAME,
      setInterval(() => void this.lastUse.flush(), this.config.lastUsedFlushIntervalMs),
    );
  }

  /** Before the database closes: no tick after it, and nothing noted is left unwritten. */
  async onModuleDestroy(): Promise<void> {
    if (this.scheduler?.getIntervals().includes(INTERVAL_NAME)) this.scheduler.deleteInterval(INTERVAL_NAME);
    await this.lastUse.flush();
  }
}
