/**
 * The server's log (pino): JSON lines on stderr in production, readable lines with
 * LOG_FORMAT=pretty (the default outside production, e.g. under `typemcp dev`). Always stderr:
 * over stdio, stdout carries the protocol. pino is loaded and made at the first record, not at
 * start-up: a stdio server is started for every client session, and most sessions log nothing.
 */
import type { StructuredLogger } from '@typemcp/core';
import type { Logger } from 'pino';
import type { AppConfig } from './config.js';

type LogConfig = Pick<AppConfig, 'logLevel' | 'logFormat'>;

export function createLogger(config: LogConfig): StructuredLogger {
  let logger: Logger | undefined;
  return deferred(() => (logger ??= pinoLogger(config)));
}

function pinoLogger(config: LogConfig): Logger {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded at the first record
  const { pino } = require('pino') as typeof import('pino');
  if (config.logFormat === 'pretty') return pino({ level: config.logLevel, transport: { target: 'pino-pretty', options: { destination: 2 } } });
  return pino({ level: config.logLevel }, pino.destination(2));
}

/** The logger `get` makes, made when it (or one of its children) writes its first record. */
function deferred(get: () => Logger): StructuredLogger {
  return {
    debug: (fields, msg) => get().debug(fields, msg),
    info: (fields, msg) => get().info(fields, msg),
    warn: (fields, msg) => get().warn(fields, msg),
    error: (fields, msg) => get().error(fields, msg),
    child(bindings) {
      let child: Logger | undefined;
      return deferred(() => (child ??= get().child(bindings)));
    },
  };
}
