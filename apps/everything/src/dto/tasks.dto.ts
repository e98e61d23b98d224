/** Input DTOs of the task fixtures (the conformance suite's io.modelcontextprotocol/tasks scenarios). */
import { IsNumber, IsOptional, IsString, Max, Min } from 'class-validator';
import { Description } from '@typemcp/core';

export class GreetInput {
  @IsString() @Description('Who to greet') name!: string;
}

export class SlowComputeInput {
  @IsNumber() @Min(0) @Max(600) @Description('How long the computation takes, in seconds') seconds!: number;
  @IsOptional() @IsString() @Description('A label echoed in the result') label?: string;
}

export class ConfirmDeleteInput {
  @IsString() @Description('The file to delete (nothing is deleted: the answer is echoed)') filename!: string;
}
