import { Module } from '@nestjs/common';
import { QrRendererService } from './qr-renderer.service.js';

/** Rendering of QR frames, with the per-second frame cache that every viewer of a session shares. */
@Module({ providers: [QrRendererService], exports: [QrRendererService] })
export class QrModule {}
