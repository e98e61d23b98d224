/** Every service this server exposes. `typemcp add` registers the services it creates here. */
import type { ClassType } from '@typemcp/core';
import { CounterService } from './counter.service.js';

export const services: ClassType[] = [CounterService];
