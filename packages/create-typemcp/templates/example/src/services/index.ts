/** Every service this server exposes. `typemcp add` registers the services it creates here. */
import type { ClassType } from '@typemcp/core';
import { GreetingService } from './greeting.service.js';
import { StatusService } from './status.service.js';

export const services: ClassType[] = [GreetingService, StatusService];
