import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { XmlEvidenceModule } from '../shared/xml-evidence/xml-evidence.module.js';
import { simulatorEvidenceProvider } from './simulator-evidence.provider.js';
import { simulatorConfig } from './simulator.config.js';
import { SimulatorOrder } from './simulator-order.entity.js';
import { SimulatorOrderStore } from './simulator-order.store.js';
import { SimulatorProvider } from './simulator.provider.js';
import { SimulatorIdCards } from './simulator-idcards.js';

@Module({
  imports: [ConfigModule.forFeature(simulatorConfig), TypeOrmModule.forFeature([SimulatorOrder]), XmlEvidenceModule],
  providers: [SimulatorOrderStore, SimulatorProvider, SimulatorIdCards, simulatorEvidenceProvider],
  exports: [SimulatorProvider, SimulatorIdCards],
})
export class SimulatorModule {}
