/**
 * The server's configuration: read from the environment (and `.env`, which never overrides a
 * variable already set) once at start-up by `loadConfig(AppConfig)` in main.ts, checked like a
 * tool's input. A bad or missing variable stops start-up with one line naming it (never its
 * value). Each property is read from its name in UPPER_SNAKE_CASE (`logLevel` from LOG_LEVEL);
 * inject AppConfig into any service or @Injectable() through its constructor.
 */
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Max, Min } from 'class-validator';

export class AppConfig {
  // [both]
  /** MCP_TRANSPORT: `stdio` (default) or `http`; `--transport` on the command line wins. */
  @IsIn(['stdio', 'http']) mcpTransport = 'stdio';
  // [/both]
  /** LOG_LEVEL: fatal, error, warn, info (default), debug, trace or silent. */
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) logLevel = 'info';
  /** LOG_FORMAT: `json` (one JSON line per record, the default with NODE_ENV=production) or `pretty` (the default otherwise). */
  @IsIn(['json', 'pretty']) logFormat = process.env.NODE_ENV === 'production' ? 'json' : 'pretty';
  // [http]
  /** PORT: the HTTP port (0 picks a free one). */
  @IsInt() @Min(0) @Max(65535) port = 3000;
  /** HOST: the address to listen on; 0.0.0.0 (every interface, as in the container) needs ALLOWED_HOSTS or PUBLIC_URL. */
  @IsString() host = '127.0.0.1';
  /** ALLOWED_HOSTS: the Host names clients use, comma-separated (`mcp.example.com,localhost`); `*` accepts any (no DNS-rebinding protection). */
  @IsOptional() @IsString({ each: true }) allowedHosts?: string[];
  /** PUBLIC_URL: where clients reach the server behind a TLS-terminating proxy (`https://mcp.example.com`); its host is allowed. */
  @IsOptional() @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] }) publicUrl?: string;
  /** TRUST_PROXY: build the server's own URLs from X-Forwarded-Proto/-Host (only behind a proxy that sets them). */
  @IsBoolean() trustProxy = false;
  /** REQUEST_LOG: one log record per HTTP request (method, path, status, time; never a body or a token). */
  @IsBoolean() requestLog = true;
  /**
   * DRAIN_MS: after SIGTERM, how long the server keeps serving what it has (readiness 503) before it
   * closes: 5000 with NODE_ENV=production (a load balancer needs a moment to stop routing here), 0
   * otherwise (`typemcp dev` restarts at once).
   */
  @IsInt() @Min(0) drainMs = process.env.NODE_ENV === 'production' ? 5000 : 0;
  // [/http]
  // [redis]
  /** REDIS_URL: Redis shared by every instance (sessions, streams, notifications); one instance alone without it. */
  @IsOptional() @IsUrl({ require_tld: false, require_protocol: true, protocols: ['redis', 'rediss'] }) redisUrl?: string;
  // [/redis]
  // [example]
  /** DATABASE_URL: PostgreSQL (`postgres://user:password@host:5432/db`); the server runs without a database when unset. */
  @IsOptional() @IsUrl({ require_tld: false, require_protocol: true, protocols: ['postgres', 'postgresql'] }) databaseUrl?: string;
  // [/example]
  // [proxy]
  /** OAUTH_ISSUER: the identity provider's issuer URL (its endpoints are discovered). */
  @IsOptional() @IsUrl({ require_tld: false, require_protocol: true }) oauthIssuer?: string;
  /** OAUTH_CLIENT_ID: the client registered at the provider for this server. */
  @IsOptional() @IsString() oauthClientId?: string;
  /** OAUTH_CLIENT_SECRET: its secret. */
  @IsOptional() @IsString() oauthClientSecret?: string;
  /** OAUTH_SCOPES: what to ask the provider for (default openid). */
  @IsString({ each: true }) oauthScopes: string[] = ['openid'];
  /** MCP_SCOPES: the scopes this server's own tokens may carry (default: every scope the services declare; a list that leaves one out stops start-up). */
  @IsOptional() @IsString({ each: true }) mcpScopes?: string[];
  // [/proxy]
}
