import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Team } from './team.entity.js';
import { TeamStore } from './team.store.js';
import { TeamsService } from './teams.service.js';

@Module({ imports: [TypeOrmModule.forFeature([Team])], providers: [TeamStore, TeamsService], exports: [TeamsService] })
export class TeamsModule {}
