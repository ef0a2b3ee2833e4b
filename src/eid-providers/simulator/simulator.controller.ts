import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags, ApiOkResponse } from '@nestjs/swagger';
import { Public } from '../../auth/access.decorators.js';
import { DomainException } from '../../common/problem-details/domain.exception.js';
import { ValidationProblemException } from '../../common/problem-details/validation-problem.exception.js';
import { EidProviderRegistry } from '../eid-provider.registry.js';
import { PhoneAnswerDto } from './dto/phone-answer.dto.js';
import { ScanDto } from './dto/scan.dto.js';
import { SimulatorProvider } from './simulator.provider.js';
import { ApiProblems, VALIDATION } from '../../common/problem-details/api-problems.decorator.js';
import { PhoneAnswerAnswerDto, ScanAnswerDto } from './dto/scan-answer.dto.js';

// A test identity (Skatteverket's test personal numbers start 1990…); overridable per scan.
export const DEFAULT_USER = { personalNumber: '199001011239', givenName: 'Tess', surname: 'Testsson' };

@ApiTags('simulator')
@Controller('api/v1/simulator')
export class SimulatorController {
  constructor(
    private readonly simulator: SimulatorProvider,
    private readonly registry: EidProviderRegistry,
  ) {}

  /** No API key: this is the end user's phone. It exists only while the simulator is enabled. */
  @Public()
  @Post('scan')
  @HttpCode(200)
  @ApiOperation({ summary: "Play the end user's e-ID app: scan a QR frame (or use the autostart token), then approve or cancel" })
  @ApiOkResponse({ type: ScanAnswerDto })
  @ApiProblems(
    VALIDATION,
    'payload_too_large',
    'unsupported_media_type',
    'not_found',
    'qr_invalid',
    'qr_expired',
    'session_not_pending',
    'rate_limit_exceeded',
  )
  async scan(@Body() body: ScanDto) {
    this.assertEnabled();
    if (Boolean(body.qrData) === Boolean(body.autoStartToken)) {
      throw new ValidationProblemException([{ pointer: '/qrData', detail: 'exactly one of qrData and autoStartToken is required' }]);
    }
    const givenName = body.givenName ?? DEFAULT_USER.givenName;
    const surname = body.surname ?? DEFAULT_USER.surname;
    const action = body.action ?? 'approve';
    const shown = await this.simulator.scan({
      qrData: body.qrData,
      autoStartToken: body.autoStartToken,
      action,
      risk: body.risk,
      user: {
        personalNumber: body.personalNumber ?? DEFAULT_USER.personalNumber,
        givenName,
        surname,
        name: body.name ?? `${givenName} ${surname}`,
      },
    });
    // What the app shows: the operation, its text when it has one, and a payment's transaction.
    return { scanned: true, action, ...shown };
  }

  /** No API key: this is the person on the call with the RP, answering in their app. */
  @Public()
  @Post('phone')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Play the person on a call with the RP: confirm the call and approve, or decline, the newest phone session for a personal number',
  })
  @ApiOkResponse({ type: PhoneAnswerAnswerDto })
  @ApiProblems(
    VALIDATION,
    'payload_too_large',
    'unsupported_media_type',
    'not_found',
    'order_not_found',
    'session_not_pending',
    'rate_limit_exceeded',
  )
  async phone(@Body() body: PhoneAnswerDto) {
    this.assertEnabled();
    const givenName = body.givenName ?? DEFAULT_USER.givenName;
    const surname = body.surname ?? DEFAULT_USER.surname;
    const action = body.action ?? 'approve';
    const shown = await this.simulator.answerPhone({
      action,
      user: { personalNumber: body.personalNumber, givenName, surname, name: body.name ?? `${givenName} ${surname}` },
    });
    return { answered: true, action, ...shown };
  }

  private assertEnabled(): void {
    if (!this.registry.isEnabled(this.simulator.name)) throw new DomainException('not_found', 'No such resource.');
  }
}
