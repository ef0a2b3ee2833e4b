import { Injectable } from '@nestjs/common';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { OtpChallengeStore } from '../otp/otp-challenge.store.js';
import { UserStore } from '../users/user.store.js';
import { ConsoleLoginFailureStore } from './console-login-failure.store.js';

/**
 * The operator's way out for a member who cannot log in (CLI `users unlock`, docs/console.md): lifts
 * the OTP lockout of the RPs' login flow and forgets the console's wrong codes from every address.
 */
@Injectable()
export class LoginUnlock {
  constructor(
    private readonly users: UserStore,
    private readonly challenges: OtpChallengeStore,
    private readonly consoleFailures: ConsoleLoginFailureStore,
  ) {}

  async unlock(userId: string): Promise<void> {
    if (!(await this.users.findWithTeam(userId))) throw new DomainException('not_found', `No user ${userId}.`);
    await this.challenges.unlock(userId);
    await this.consoleFailures.clearUser(userId);
  }
}
