import { connectKeyValueStore, type ToolDefinition } from '@toolmesh/registry';
import type { Logger, RequestContext } from '@toolmesh/transport-http/server';

import { RequestStateSeal } from '../../call/request-state-seal';
import type { GatewayConfig } from '../../config/gateway-config';
import { OutboundHeaders } from '../../execution/invokers/outbound-headers';
import { LongCalls, statusHeaders } from '../../execution/tasks/long-calls';
import { type StatusHeaders, TaskService } from '../../execution/tasks/task-service';
import type { ExecutionSettings } from '../../execution/tool-execution-service';
import { RedisTaskStore } from '../../task-state/redis-task-store';
import { MemoryTaskStore, type TaskStore } from '../../task-state/task-store';
import type { CallerIdentity } from '../../tool-client/caller-identity';
import type { ToolClient } from '../../tool-client/tool-client';
import { FederatedTasks } from '../../upstreams/federated-tasks';
import type { McpUpstreams } from '../../upstreams/mcp-upstreams';

/** What the eras serve tasks with (build-eras.ts), when `mcp.tasks.enabled`. */
export interface TaskServing {
  readonly service: TaskService;
  /** The headers a status read made for a request carries: the gateway's identity and what it forwards of the caller's. */
  readonly headersFor: (context: RequestContext) => StatusHeaders;
  /** `tasks/list` (2025-11-25) only where callers are authenticated: without, a list would show everybody's tasks. */
  readonly withList: boolean;
  /** MCP servers' tasks relayed under sealed ids (issue 47), when MCP server bundles are configured. */
  readonly federated?: FederatedTasks;
}

/**
 * The tasks part of the gateway (issue 47): `longCalls` always (a long tool's 202 is waited for within the
 * deadline even with tasks off), `serving` when tasks are on, their records in Redis when `mcp.redis.url`
 * is set (every replica answers for every task), else in this process.
 */
export function buildTasks(
  config: GatewayConfig,
  client: ToolClient,
  caller: CallerIdentity,
  settings: Pick<ExecutionSettings, 'forwardAuthorization' | 'identityHeaders'>,
  toolNamed: (name: string) => ToolDefinition | undefined,
  upstreams: McpUpstreams | undefined,
  logger: Logger,
): { longCalls: LongCalls; serving?: TaskServing } {
  const { tasks, redis, requestStateKey, maxToolTimeoutMillis } = config.mcp;
  if (!tasks.enabled) return { longCalls: new LongCalls(client, tasks, undefined, logger) };
  const store: TaskStore =
    redis.url === undefined
      ? new MemoryTaskStore()
      : new RedisTaskStore(
          connectKeyValueStore({
            url: redis.url,
            connectTimeoutMillis: redis.commandTimeoutMillis * 5,
            commandTimeoutMillis: redis.commandTimeoutMillis,
          }),
          redis.keyPrefix,
          tasks.maxTtlMillis,
        );
  const service = new TaskService(store, client, tasks, toolNamed, logger);
  const headers = new OutboundHeaders(caller, settings);
  // Sealed with the key of requestState, so that every replica opens a server's task id, for as long as a task may live.
  const federated =
    upstreams &&
    new FederatedTasks(upstreams, RequestStateSeal.fromSecret(requestStateKey, tasks.maxTtlMillis / 1000), tasks, maxToolTimeoutMillis);
  return {
    longCalls: new LongCalls(client, tasks, service, logger),
    serving: {
      service,
      headersFor: (context) => statusHeaders(headers.of(context, {}, undefined)),
      withList: config.auth !== undefined,
      ...(federated && { federated }),
    },
  };
}
