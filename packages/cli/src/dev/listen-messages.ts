/** The IPC messages between `typemcp dev` and the listen redirect in its server process. */

/**
 * From the server process: `listen` asks `typemcp dev` to listen on `port` (0: any) and `host`
 * for it; `bound` says which private loopback port the server then listened on.
 */
export type DevListenRequest = { typemcpDev: 'listen'; key: string; port: number; host?: string } | { typemcpDev: 'bound'; key: string; port: number };

/** To the server process: the port clients use, or why `typemcp dev` could not listen there. */
export interface DevListenReply {
  typemcpDev: 'listen';
  key: string;
  port?: number;
  error?: { code: string; message: string };
}
