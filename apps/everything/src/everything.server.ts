/** Builds the everything server from its decorated services. */
import { createServer, type TypeMcpServer } from '@typemcp/core';
import { ClientRequestsService } from './services/client-requests.service.js';
import { ContentToolsService } from './services/content-tools.service.js';
import { ExtrasService } from './services/extras.service.js';
import { MultiRoundService } from './services/multi-round.service.js';
import { PromptsService, ResourcesService } from './services/resources.service.js';

/**
 * A fresh everything server, for every revision from 2024-11-05 to 2026-07-28 (the dynamic
 * tool and prompt services are added at run time by the toggle/trigger tools).
 */
export function createEverythingServer(): TypeMcpServer {
  return createServer({
    name: 'typemcp-everything',
    title: 'TypeMCP Everything',
    version: '0.1.0',
    description: 'Every MCP feature under the conformance suite fixture names',
    instructions: 'A test server: every tool, resource and prompt of the MCP conformance suite, plus `add`.',
    services: [ExtrasService, ContentToolsService, ClientRequestsService, ResourcesService, PromptsService, MultiRoundService],
  });
}
