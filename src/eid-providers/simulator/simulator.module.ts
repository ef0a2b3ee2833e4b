import { Module } from '@nestjs/common';
import { SimulatorProvider } from './simulator.provider.js';

@Module({ providers: [SimulatorProvider], exports: [SimulatorProvider] })
export class SimulatorModule {}
