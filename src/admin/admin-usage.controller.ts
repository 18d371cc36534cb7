import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { AdminRoute } from '../auth/route-access.decorators';
import { ErrorCode } from '../errors/error-code.enum';
import { ApiEnvelopeResponse } from '../swagger/api-envelope-response.decorator';
import { ApiErrorResponses } from '../swagger/api-error-responses.decorator';
import { BillingService } from '../billing/billing.service';
import { MerchantUsageResponseDto } from '../billing/dto/merchant-usage-response.dto';
import { ApiIdParam } from '../swagger/api-path-parameters';
import { mayLag } from '../swagger/replica-lag';

/** The admin API's usage route: the billing module's meters, read for an operator. */
@AdminRoute()
@Controller('admin/v1')
export class AdminUsageController {
  constructor(private readonly billing: BillingService) {}

  @Get('merchants/:merchant_id/usage')
  @ApiOperation(mayLag({
    summary: "A merchant's plan limits and usage",
    description:
      'Storage used (CONFIRMED files), storage reserved (PENDING uploads with a valid URL), and this calendar month (UTC) of bandwidth and overage, in bytes, per mode.',
  }))
  @ApiIdParam('merchant_id', 'mer', 'Merchant', ['POST /admin/v1/merchants'])
  @ApiEnvelopeResponse(MerchantUsageResponseDto, { description: 'Limits and usage' })
  @ApiErrorResponses(ErrorCode.MERCHANT_NOT_FOUND)
  usage(@Param('merchant_id') merchantId: string): Promise<MerchantUsageResponseDto> {
    return this.billing.usage(merchantId);
  }
}
