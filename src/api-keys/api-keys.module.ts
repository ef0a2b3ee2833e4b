import { Module } from '@nestjs/common';
import { TeamsModule } from '../teams/teams.module.js';
import { ApiKeysController } from './api-keys.controller.js';
import { ApiKeysService } from './api-keys.service.js';

@Module({ imports: [TeamsModule], controllers: [ApiKeysController], providers: [ApiKeysService], exports: [ApiKeysService] })
export class ApiKeysModule {}
