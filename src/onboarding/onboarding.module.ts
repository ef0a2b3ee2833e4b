import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys/api-keys.module.js';
import { TeamsModule } from '../teams/teams.module.js';
import { FirstStartService } from './first-start.service.js';

@Module({ imports: [TeamsModule, ApiKeysModule], providers: [FirstStartService] })
export class OnboardingModule {}
