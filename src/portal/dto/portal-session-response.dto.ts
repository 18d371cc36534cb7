import { ApiProperty } from '@nestjs/swagger';

export class PortalSessionResponseDto {
  @ApiProperty({ description: 'Portal session id', example: 'ps_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  id: string;

  @ApiProperty({
    description: 'The one-time link to send the customer to (redirect them): works once, within the hour. Shown only in this answer.',
    example: 'https://api.example.com/portal/open/9wQmT2x7c3Vb5Nn1Lk8Jh4Gf6Dd0Ss2Aa9Zz7Xx5Cc3Vv1Bb4Mm2',
  })
  url: string;

  @ApiProperty({ description: 'When the link stops working if unused (one hour after creation)', example: '2026-11-22T14:06:00.000Z' })
  expires_at: string;

  @ApiProperty({ description: 'The customer whose deliveries the portal shows', example: 'cus_01jd8x3k2m4n5p6q7r8s9t0v1w' })
  customer_id: string;

  @ApiProperty({ description: "Where the portal's Back link goes, or null", example: 'https://shop.example.com/account', nullable: true, type: String })
  return_url: string | null;

  @ApiProperty({ description: 'When the session was created', example: '2026-11-22T13:06:00.000Z' })
  created_at: string;
}
