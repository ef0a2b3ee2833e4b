import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Team } from './team.entity.js';
import { TeamsService } from './teams.service.js';

@Module({ imports: [TypeOrmModule.forFeature([Team])], providers: [TeamsService], exports: [TeamsService] })
export class TeamsModule {}
