import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited } from '../audit/audited.decorator.js';
import { ManagementEndpoint } from '../common/access/access.decorators.js';
import { CurrentPrincipal, type UserPrincipal } from '../common/access/principal.js';
import { ApiProblems, BEARER_PROBLEMS, VALIDATION } from '../common/problem-details/api-problems.decorator.js';
import { AddMemberDto } from './dto/add-member.dto.js';
import { MemberDto } from './dto/member.dto.js';
import type { User } from './user.entity.js';
import { UsersService } from './users.service.js';

const memberView = (user: User) => ({ id: user.id, email: user.email, phone: user.phone, createdAt: user.createdAt });

// The contact is the member's, so the audit entry names it: who was let in or out is the point of the entry.
const describeMember = (_request: unknown, answer: unknown) => {
  const member = answer as User;
  return { targetId: member.id, details: { email: member.email, phone: member.phone } };
};

@ApiTags('management')
@ApiBearerAuth('bearer')
@ManagementEndpoint()
@Controller('api/v1/members')
export class MembersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @ApiOperation({ summary: "The team's members, oldest first" })
  @ApiOkResponse({ type: [MemberDto] })
  @ApiProblems(...BEARER_PROBLEMS)
  async list(@CurrentPrincipal() principal: UserPrincipal) {
    return (await this.users.listForTeam(principal.team.id)).map(memberView);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Add a member by e-mail address or mobile number; they log in to the console with a one-time code' })
  @ApiCreatedResponse({ type: MemberDto })
  @ApiProblems(...BEARER_PROBLEMS, VALIDATION, 'payload_too_large', 'unsupported_media_type', 'member_exists')
  @Audited('member.added', describeMember)
  async add(@CurrentPrincipal() principal: UserPrincipal, @Body() body: AddMemberDto) {
    return memberView(await this.users.addMember(principal.team.id, { email: body.email, phone: body.phone }));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a member (not yourself); their console session ends at their next request' })
  @ApiNoContentResponse({ description: 'Removed.' })
  @ApiProblems(...BEARER_PROBLEMS, 'not_found', 'cannot_remove_self')
  @Audited('member.removed', describeMember, { noContent: true })
  async remove(@CurrentPrincipal() principal: UserPrincipal, @Param('id') id: string) {
    // The removed member is for the audit entry only; the client gets 204 without a body.
    return memberView(await this.users.removeMember(principal.team.id, id, principal.user.id));
  }
}
