import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EvidenceModule } from '../../evidence/evidence.module.js';
import { SimulatorOrder } from './simulator-order.entity.js';
import { SimulatorOrderStore } from './simulator-order.store.js';
import { SimulatorProvider } from './simulator.provider.js';

@Module({
  imports: [TypeOrmModule.forFeature([SimulatorOrder]), EvidenceModule],
  providers: [SimulatorOrderStore, SimulatorProvider],
  exports: [SimulatorProvider],
})
export class SimulatorModule {}
