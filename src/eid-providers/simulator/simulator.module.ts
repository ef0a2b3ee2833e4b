import { Module } from '@nestjs/common';
import { SimulatorOrderStore } from './simulator-order.store.js';
import { SimulatorProvider } from './simulator.provider.js';

@Module({ providers: [SimulatorOrderStore, SimulatorProvider], exports: [SimulatorProvider] })
export class SimulatorModule {}
