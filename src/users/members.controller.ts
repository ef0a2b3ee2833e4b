import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ManagementEndpoint } from '../auth/access.decorators.js';
import { CurrentPrincipal, type UserPrincipal } from '../auth/principal.js';
import { ApiProblems, BEARER_PROBLEMS, VALIDATION } from '../common/problem-details/api-problems.decorator.js';
import { AddMemberDto } from './dto/add-member.dto.js';
import { MemberDto } from './dto/member.dto.js';
import { UsersService } from './users.service.js';

@ApiTags('management')
@ApiBearerAuth('bearer')
@ManagementEndpoint()
@Controller('api/v1/members')
export class MembersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @ApiOperation({ summary: "The team's members and invitations, oldest first" })
  @ApiOkResponse({ type: [MemberDto] })
  @ApiProblems(...BEARER_PROBLEMS)
  list(@CurrentPrincipal() principal: UserPrincipal) {
    return this.users.listMembers(principal.team.id);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Invite a member by e-mail address or mobile number (owners); they join at their first console login with a one-time code',
  })
  @ApiCreatedResponse({ type: MemberDto, description: 'Invited (the same answer whether or not the contact can join).' })
  @ApiProblems(...BEARER_PROBLEMS, VALIDATION, 'payload_too_large', 'unsupported_media_type', 'owner_required', 'member_exists')
  add(@CurrentPrincipal() principal: UserPrincipal, @Body() body: AddMemberDto, @Req() request: FastifyRequest) {
    // The audit entry is written in the change's transaction (docs/audit.md), so not by @Audited().
    return this.users.addMember({ principal, clientAddress: request.ip ?? null }, { email: body.email, phone: body.phone });
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a member or an invitation (owners; not yourself); their console session ends at their next request' })
  @ApiNoContentResponse({ description: 'Removed.' })
  @ApiProblems(...BEARER_PROBLEMS, 'owner_required', 'not_found', 'cannot_remove_self')
  async remove(@CurrentPrincipal() principal: UserPrincipal, @Param('id') id: string, @Req() request: FastifyRequest): Promise<void> {
    await this.users.removeMember({ principal, clientAddress: request.ip ?? null }, id);
  }
}
