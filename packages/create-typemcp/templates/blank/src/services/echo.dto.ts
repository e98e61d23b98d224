/** What clients send to the echo service: the JSON Schema clients see and the validator in one. */
import { Description } from '@typemcp/core';
import { IsString } from 'class-validator';

/** Input of the `echo` tool. */
export class EchoInput {
  @IsString() @Description('The text to send back')
  text!: string;
}
