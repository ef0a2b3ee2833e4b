import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EidProvidersModule } from '../eid-providers/eid-providers.module.js';
import { SessionsModule } from '../sessions/sessions.module.js';
import { CounterLink } from './counter-link.entity.js';
import { CounterLinkStore } from './counter-link.store.js';
import { CounterLinksController } from './counter-links.controller.js';
import { CounterLinksService } from './counter-links.service.js';
import { CounterController } from './counter.controller.js';
import { IdCardController } from './idcard.controller.js';

/** Digital ID cards at a counter (docs/idcard.md): the API route, the counter page and its links. */
@Module({
  imports: [SessionsModule, EidProvidersModule, TypeOrmModule.forFeature([CounterLink])],
  controllers: [IdCardController, CounterController, CounterLinksController],
  providers: [CounterLinkStore, CounterLinksService],
  exports: [CounterLinksService],
})
export class IdCardModule {}
