import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys/api-keys.module.js';
import { EidProvidersModule } from '../eid-providers/eid-providers.module.js';
import { StatsController } from './stats.controller.js';
import { StatsService } from './stats.service.js';
import { StatsStore } from './stats.store.js';

/** The console's overview figures (docs/console.md, "Overview"). */
@Module({ imports: [ApiKeysModule, EidProvidersModule], controllers: [StatsController], providers: [StatsStore, StatsService] })
export class StatsModule {}
