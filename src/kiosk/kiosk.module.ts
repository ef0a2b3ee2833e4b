import { Module } from '@nestjs/common';
import { EidProvidersModule } from '../eid-providers/eid-providers.module.js';
import { KioskTokenModule } from '../kiosk-tokens/kiosk-token.module.js';
import { SessionsModule } from '../sessions/sessions.module.js';
import { KioskStreamsService } from './kiosk-streams.service.js';
import { KioskController } from './kiosk.controller.js';

@Module({
  imports: [SessionsModule, KioskTokenModule, EidProvidersModule],
  controllers: [KioskController],
  providers: [KioskStreamsService],
})
export class KioskModule {}
