import { Module } from '@nestjs/common';
import { EidProvidersModule } from '../eid-providers/eid-providers.module.js';
import { SessionsModule } from '../sessions/sessions.module.js';
import { KioskTokenModule } from './kiosk-token.module.js';
import { KioskSessionReader } from './kiosk-session-reader.js';
import { KioskStreamsService } from './kiosk-streams.service.js';
import { KioskController } from './kiosk.controller.js';

@Module({
  imports: [SessionsModule, KioskTokenModule, EidProvidersModule],
  controllers: [KioskController],
  providers: [KioskSessionReader, KioskStreamsService],
})
export class KioskModule {}
