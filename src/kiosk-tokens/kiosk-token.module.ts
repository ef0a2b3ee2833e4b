import { Module } from '@nestjs/common';
import { KioskLinks } from './kiosk-links.js';
import { kioskTokenSignerProvider } from './kiosk-token.provider.js';

/** Kiosk links on their own, so sessions (which issue them) and the kiosk (which checks them) share one signer. */
@Module({
  providers: [kioskTokenSignerProvider, KioskLinks],
  exports: [KioskLinks],
})
export class KioskTokenModule {}
