import { Module } from '@nestjs/common';
import { BankIdModule } from '../eid-providers/bankid/bankid.module.js';
import { HealthController } from './health.controller.js';

@Module({ imports: [BankIdModule], controllers: [HealthController] })
export class HealthModule {}
