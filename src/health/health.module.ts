import { Module } from '@nestjs/common';
import { BankIdModule } from '../eid-providers/bankid/bankid.module.js';
import { FrejaModule } from '../eid-providers/freja/freja.module.js';
import { HealthController } from './health.controller.js';

@Module({ imports: [BankIdModule, FrejaModule], controllers: [HealthController] })
export class HealthModule {}
