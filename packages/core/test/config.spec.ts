/**
 * loadConfig(): a configuration DTO from the environment and `.env`, converted and validated by
 * the tool-input pipeline, one message per bad or missing variable, never a value.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ConfigurationError, Env, getMetadataStorage, loadConfig } from '@typemcp/core';
import { ArrayNotEmpty, IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Max, Min } from 'class-validator';

beforeEach(() => getMetadataStorage().reset());

function declare() {
  class AppConfig {
    @IsInt() @Min(0) @Max(65535) port = 3000;
    @IsString() host = '127.0.0.1';
    @IsOptional() @ArrayNotEmpty() @IsString({ each: true }) allowedHosts?: string[];
    @IsIn(['debug', 'info', 'warn', 'error']) logLevel = 'info';
    @IsBoolean() requestLog = false;
    @Env('SIGNING_SECRET') @IsString() secret!: string;
    @IsOptional() @IsUrl({ require_tld: false }) redisUrl?: string;
  }
  return AppConfig;
}

it('reads each property from its variable, converts numbers, booleans and lists, and keeps the defaults of the rest', async () => {
  const AppConfig = declare();
  const config = await loadConfig(AppConfig, {
    env: { PORT: '8080', ALLOWED_HOSTS: 'mcp.example.com, tools.example.com,', REQUEST_LOG: 'yes', SIGNING_SECRET: 's3cr3t!', HOST: '' },
  });
  expect(config).toBeInstanceOf(AppConfig);
  expect({ ...config }).toEqual({
    port: 8080,
    host: '127.0.0.1',
    allowedHosts: ['mcp.example.com', 'tools.example.com'],
    logLevel: 'info',
    requestLog: true,
    secret: 's3cr3t!',
  });
});

it('gives one message per bad or missing variable, naming the variable and never its value', async () => {
  const AppConfig = declare();
  const env = { PORT: '80a80', LOG_LEVEL: 'verbose-hunter2', REQUEST_LOG: 'perhaps-hunter2', REDIS_URL: 'not a url hunter2' };
  const error = (await loadConfig(AppConfig, { env }).catch((e: unknown) => e)) as ConfigurationError;
  expect(error).toBeInstanceOf(ConfigurationError);
  expect(error.code).toBe('TYPEMCP_ERR_INVALID_CONFIGURATION');
  expect(error.problems.map((p) => p.variable).sort()).toEqual(['LOG_LEVEL', 'PORT', 'REDIS_URL', 'REQUEST_LOG', 'SIGNING_SECRET']);
  expect(error.problems.find((p) => p.variable === 'SIGNING_SECRET')?.message).toBe('is required: set it in the environment or in .env');
  expect(error.problems.find((p) => p.variable === 'PORT')?.message).toBe('must be an integer');
  expect(error.message).toMatch(/^Invalid configuration \(AppConfig\): 5 problems\n {2}- /);
  for (const value of Object.values(env)) expect(error.message).not.toContain(value);
  expect(error.message).not.toContain('hunter2');
});

it('reads .env (in the working directory by default), where the environment wins (as with dotenv)', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'typemcp-config-'));
  writeFileSync(path.join(dir, '.env'), '# local settings\nSIGNING_SECRET="from file"\nLOG_LEVEL=debug\nPORT=1234\n');
  const AppConfig = declare();
  const saved = { ...process.env };
  const cwd = process.cwd();
  try {
    process.chdir(dir);
    process.env.PORT = '4321';
    delete process.env.SIGNING_SECRET;
    delete process.env.LOG_LEVEL;
    const config = await loadConfig(AppConfig);
    expect([config.secret, config.logLevel, config.port]).toEqual(['from file', 'debug', 4321]);
    expect(process.env.SIGNING_SECRET).toBe('from file');
    // envFile: false reads no file; a given env is not mixed with .env unless envFile names it.
    await expect(loadConfig(AppConfig, { env: {} })).rejects.toThrow('SIGNING_SECRET: is required');
    const env: Record<string, string> = { LOG_LEVEL: 'warn' };
    expect(await loadConfig(AppConfig, { env, envFile: path.join(dir, '.env') })).toMatchObject({ logLevel: 'warn', port: 1234 });
    delete process.env.SIGNING_SECRET;
    await expect(loadConfig(AppConfig, { envFile: false })).rejects.toThrow('SIGNING_SECRET: is required');
  } finally {
    process.chdir(cwd);
    process.env = saved;
  }
});
