import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { ROLES, type Role } from '../../auth/roles';

export class CreateDashboardUserDto {
  @ApiProperty({ description: 'Email the user signs in with (case-insensitive)', example: 'ada@example.com', maxLength: 254 })
  @IsDefined()
  @IsString()
  @MaxLength(254)
  email: string;

  @ApiProperty({ description: "The user's role (DESIGN §11); default owner for the merchant's first user, viewer after. Given for an existing user, it changes the role", enum: ROLES, required: false, example: 'admin' })
  @IsOptional()
  @IsIn(ROLES)
  role?: Role;

  @ApiProperty({ description: 'Limit the user to test mode (every live request is 403); default false', required: false, example: false })
  @IsOptional()
  @IsBoolean()
  test_only?: boolean;
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
  @ApiProperty({ description: 'The token of the setup link (after #token=)', example: 'mZ2xq1Hk8cV0yJ3pT5rW7uA9sD1fG3hK5lZ7xC9vB1n', maxLength: 128 })
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
