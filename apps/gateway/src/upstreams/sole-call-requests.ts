import type { ServerRequestHandlers } from '@toolmesh/mcp-client';

import { RelayRefusal } from './server-request-relay';

/**
 * The requests a 2025 server sends on its session's own stream (the GET stream), which name no call. The
 * 2025-11-25 transport says a request of a call SHOULD come on that call's stream, but Python's `mcp`
 * (`ctx.session.create_message`, as its documentation shows sampling) sends a call's sampling request on the
 * session's stream (issue 45, item 3). While exactly one relayed call runs on the session, nothing but that
 * call can have asked, so the request goes to that call's caller, as one on the call's stream would;
 * with none running, or several (whose caller it is for is unknown), it is refused, as before.
 */
export class SoleCallRequests {
  private readonly running = new Set<ServerRequestHandlers>();

  /** The session's own handlers: each request goes to the sole running call's. */
  readonly handlers: ServerRequestHandlers = {
    elicitation: async (params, signal) => this.sole('elicitation/create').elicitation?.(params, signal) ?? refused('elicitation/create'),
    sampling: async (params, signal) => this.sole('sampling/createMessage').sampling?.(params, signal) ?? refused('sampling/createMessage'),
    roots: async () => this.sole('roots/list').roots?.() ?? refused('roots/list'),
  };

  /**
   * `handlers` are a call's own from `began` to `ended`. Two plain calls rather than a wrapper around the
   * call's promise: the caller ends it from the handlers its promise has anyway, so a 2025 call makes no
   * promise more for this (docs/adr/0005-gateway-hot-path.md).
   */
  began(handlers: ServerRequestHandlers): void {
    this.running.add(handlers);
  }

  ended(handlers: ServerRequestHandlers): void {
    this.running.delete(handlers);
  }

  private sole(method: string): ServerRequestHandlers {
    if (this.running.size === 1) return this.running.values().next().value as ServerRequestHandlers;
    throw new RelayRefusal(
      this.running.size === 0
        ? `${method} outside a call: this gateway has nobody to ask`
        : `${method} on the session's own stream while ${this.running.size} calls run: which caller it is for is unknown`,
    );
  }
}

function refused(method: string): never {
  throw new RelayRefusal(`${method}: the caller of the call cannot be asked it`);
}
