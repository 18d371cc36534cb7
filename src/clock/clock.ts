import { Injectable } from '@nestjs/common';

/**
 * The current time, as one injectable provider so expiry can be tested by moving time forward
 * (tests replace `now`) instead of sleeping.
 */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
