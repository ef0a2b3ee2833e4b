import { Module } from '@nestjs/common';
import { BankIdModule } from './bankid/bankid.module.js';
import { BankIdProvider } from './bankid/bankid.provider.js';
import type { EidProvider } from './eid-provider.js';
import { EID_PROVIDERS, EidProviderRegistry } from './eid-provider.registry.js';
import { SimulatorAppController } from './simulator/simulator-app.controller.js';
import { SimulatorController } from './simulator/simulator.controller.js';
import { SimulatorModule } from './simulator/simulator.module.js';
import { SimulatorProvider } from './simulator/simulator.provider.js';

@Module({
  imports: [SimulatorModule, BankIdModule],
  controllers: [SimulatorController, SimulatorAppController],
  providers: [
    { provide: EID_PROVIDERS, inject: [SimulatorProvider, BankIdProvider], useFactory: (...providers: EidProvider[]) => providers },
    EidProviderRegistry,
  ],
  exports: [EidProviderRegistry],
})
export class EidProvidersModule {}
