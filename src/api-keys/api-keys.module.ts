import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TeamsModule } from '../teams/teams.module.js';
import { ApiKey } from './api-key.entity.js';
import { ApiKeysController } from './api-keys.controller.js';
import { ApiKeysService } from './api-keys.service.js';

@Module({ imports: [TypeOrmModule.forFeature([ApiKey]), TeamsModule], controllers: [ApiKeysController], providers: [ApiKeysService], exports: [ApiKeysService] })
export class ApiKeysModule {}
