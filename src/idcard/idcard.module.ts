import { Module } from '@nestjs/common';
import { SessionsModule } from '../sessions/sessions.module.js';
import { IdCardController } from './idcard.controller.js';

/** Digital ID cards at a counter (docs/idcard.md): the API route. */
@Module({ imports: [SessionsModule], controllers: [IdCardController] })
export class IdCardModule {}
