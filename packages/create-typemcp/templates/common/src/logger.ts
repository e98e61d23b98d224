/**
 * The server's log (pino): JSON lines on stderr in production, readable lines with
 * LOG_FORMAT=pretty (the default outside production, e.g. under `typemcp dev`). Always stderr:
 * over stdio, stdout carries the protocol.
 */
import { pino, type Logger } from 'pino';
import type { AppConfig } from './config.js';

export function createLogger(config: Pick<AppConfig, 'logLevel' | 'logFormat'>): Logger {
  if (config.logFormat === 'pretty') return pino({ level: config.logLevel, transport: { target: 'pino-pretty', options: { destination: 2 } } });
  return pino({ level: config.logLevel }, pino.destination(2));
}
