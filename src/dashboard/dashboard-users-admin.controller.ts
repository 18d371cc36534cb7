import { Body, Controller, Param, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { AdminRoute } from '../auth/route-access.decorators';
import { ErrorCode } from '../errors/error-code.enum';
import { ApiEnvelopeResponse } from '../swagger/api-envelope-response.decorator';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';
import { DashboardUsersService } from './dashboard-users.service';
import { CreateDashboardUserDto } from './dto/dashboard-request.dto';
import { DashboardUserCreatedResponseDto } from './dto/dashboard-response.dto';
import { ApiIdParam } from '../swagger/api-path-parameters';
import { CurrentAudit, RequestAudit } from '../auth/request-audit';

/** Admin API: dashboard users of a merchant (DESIGN §11). */
@AdminRoute()
@Controller('admin/v1')
export class DashboardUsersAdminController {
  constructor(private readonly users: DashboardUsersService) {}

  @Post('merchants/:merchant_id/users')
  @ApiOperation({
    summary: 'Create a dashboard user',
    description:
      'Creates a dashboard user of the merchant and returns a one-time `setup_url` (valid 24 hours) where the user sets a password ' +
      'of at least 12 characters. For an existing user of the same merchant it returns a new link, which resets the password. ' +
      "`role` defaults to owner for the merchant's first user and viewer after; given for an existing user it changes theirs (a merchant keeps one owner: 409 LAST_OWNER).",
  })
  @ApiIdParam('merchant_id', 'mer', 'Merchant', ['POST /admin/v1/merchants'])
  @ApiEnvelopeResponse(DashboardUserCreatedResponseDto, { status: 201, description: 'The user and its setup link' })
  @ApiErrorResponses(ErrorCode.MISSING_REQUIRED_FIELD, ErrorCode.INVALID_PARAMETER, ErrorCode.MERCHANT_NOT_FOUND, ErrorCode.DASHBOARD_USER_EXISTS, ErrorCode.LAST_OWNER)
  createUser(@CurrentAudit() audit: RequestAudit, @Param('merchant_id') merchantId: string, @Body() body: CreateDashboardUserDto): Promise<DashboardUserCreatedResponseDto> {
    return this.users.create(merchantId, body.email, { role: body.role, testOnly: body.test_only }, audit);
  }
}
