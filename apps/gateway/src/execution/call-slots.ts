import type { ToolDefinition } from '@toolmesh/registry';
import type { Logger, RequestContext } from '@toolmesh/transport-http/server';

import type { ToolCallOutcome } from '../call/tool-call-outcome';
import { notCalled } from './tool-call';
import type { ToolConcurrencyLimit } from './tool-concurrency-limit';

/**
 * The concurrency limit as every invoker uses it (SPEC G26): a slot per call, taken by the tool's name and
 * its source's origin, or a refusal the model can read and a log line saying which limit.
 */
export class CallSlots {
  /** Each endpoint's origin, read once: a `URL`'s getters build a new string on every read. */
  private readonly origins = new WeakMap<URL, string>();

  constructor(
    private readonly limit: ToolConcurrencyLimit,
    private readonly logger: Logger,
  ) {}

  /** Undefined when the call may go; otherwise its outcome, the tool not called. Every slot taken is released once. */
  take(tool: ToolDefinition, context: RequestContext): ToolCallOutcome | undefined {
    const admission = this.limit.tryAcquire(tool.name, this.originOf(tool.endpoint));
    if (admission === 'admitted') return undefined;
    const { maxConcurrentCallsPerTool, connectionsPerOrigin, reservedConnectionsPerOrigin } = this.limit.limits;
    if (admission === 'tool_at_limit') {
      this.logger.warn('tool_call_refused_at_limit', { tool: tool.name, limit: maxConcurrentCallsPerTool }, context);
      return notCalled(tool.name, `it already has ${maxConcurrentCallsPerTool} calls in flight, its limit; retry later`);
    }
    const shared = connectionsPerOrigin - reservedConnectionsPerOrigin;
    this.logger.warn('tool_call_refused_at_service_limit', { tool: tool.name, limit: shared }, context);
    return notCalled(
      tool.name,
      `its tool service already has ${shared} calls in flight and the rest of its connections are kept for its other tools; retry later`,
    );
  }

  release(tool: ToolDefinition): void {
    this.limit.release(tool.name, this.originOf(tool.endpoint));
  }

  private originOf(endpoint: URL): string {
    let origin = this.origins.get(endpoint);
    if (origin === undefined) {
      origin = endpoint.origin;
      this.origins.set(endpoint, origin);
    }
    return origin;
  }
}
