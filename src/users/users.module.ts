import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TeamsModule } from '../teams/teams.module.js';
import { MeController } from './me.controller.js';
import { MemberInvitationStore } from './member-invitation.store.js';
import { MembersController } from './members.controller.js';
import { User } from './user.entity.js';
import { UserStore } from './user.store.js';
import { UsersService } from './users.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([User]), TeamsModule],
  controllers: [MeController, MembersController],
  providers: [UserStore, MemberInvitationStore, UsersService],
  exports: [UsersService],
})
export class UsersModule {}
