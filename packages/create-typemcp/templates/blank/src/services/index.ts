/** Every service this server exposes. `typemcp add` registers the services it creates here. */
import type { ClassType } from '@typemcp/core';
import { EchoService } from './echo.service.js';

export const services: ClassType[] = [EchoService];
