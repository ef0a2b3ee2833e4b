import { Module } from '@nestjs/common';
import { TeamsModule } from '../teams/teams.module.js';
import { MeController } from './me.controller.js';
import { UsersService } from './users.service.js';

@Module({ imports: [TeamsModule], controllers: [MeController], providers: [UsersService], exports: [UsersService] })
export class UsersModule {}
