import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { API_MODES, ApiMode } from '../../database/tenant';

export class CreateDashboardUserDto {
  @ApiProperty({ description: 'Email the user signs in with (case-insensitive)', example: 'ada@example.com', maxLength: 254 })
  @IsDefined()
  @IsString()
  @MaxLength(254)
  email: string;
}

export class SignInDto {
  @ApiProperty({ description: 'Email of the dashboard user', example: 'ada@example.com', maxLength: 254 })
  @IsDefined()
  @IsString()
  @MaxLength(254)
  email: string;

  @ApiProperty({ description: 'Password', example: 'correct horse battery staple', maxLength: 1024 })
  @IsDefined()
  @IsString()
  @MaxLength(1024)
  password: string;
}

export class CompleteSetupDto {
  @ApiProperty({ description: 'The token of the setup link (after #token=)', example: 'mZ2x…', maxLength: 128 })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  token: string;

  @ApiProperty({ description: 'The new password, at least 12 characters', example: 'correct horse battery staple', maxLength: 1024 })
  @IsDefined()
  @IsString()
  @MaxLength(1024)
  password: string;
}

export class SwitchModeDto {
  @ApiProperty({ description: 'The mode every /v1 call of this session acts in', enum: API_MODES, example: 'live' })
  @IsDefined()
  @IsIn(API_MODES)
  mode: ApiMode;
}
