import { AsyncResource } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { invalidRequest } from '@toolmesh/protocol';
import type { Logger } from '../logging/logger';
import { CallerHeader, readCorrelationHeaders, type CorrelationValues } from './correlation-headers';
import { sendJsonRpcError } from './error-responses';
import { runWithRequestContext } from './request-context';

/**
 * A request's correlation ids, read or generated, and echoed on its answer (SPEC G2); `undefined` when a
 * header cannot be used, which has been answered with a JSON-RPC 400 saying which.
 */
export function correlate(req: IncomingMessage, res: ServerResponse): CorrelationValues | undefined {
  const correlation = readCorrelationHeaders(req.headers);
  if (!correlation.ok) {
    sendJsonRpcError(res, 400, invalidRequest(null, `header ${correlation.header} ${correlation.problem}`));
    return undefined;
  }
  res.setHeader(CallerHeader.Guid, correlation.values.guid);
  res.setHeader(CallerHeader.RequestId, correlation.values.requestId);
  return correlation.values;
}

/**
 * For the endpoint's other methods (GET, DELETE, OPTIONS), as the POST exchange does: correlation ids read
 * or generated and echoed, and one line when the request arrives and one when its answer is done, both
 * carrying the ids (SPEC G2, G26); the values are in `res.locals.correlation` for the handler. Only the HTTP method is logged: these requests carry no JSON-RPC method.
 */
export function correlatedRequest(logger: Logger, requestDeadlineMillis: number) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const receivedAt = performance.now();
    const values = correlate(req, res);
    if (!values) return;
    res.locals.correlation = values; // for the handler of the request's method
    const context = { ...values, deadline: receivedAt + requestDeadlineMillis, receivedAt };
    const httpMethod = req.method;
    runWithRequestContext(context, () => {
      logger.info('mcp_http_request_received', { httpMethod });
      // Bound to this request's context: 'close' is emitted from the socket's, which is not the request's.
      res.once(
        'close',
        AsyncResource.bind(() => {
          const fields = { httpMethod, status: res.statusCode, durationMs: Math.round(performance.now() - receivedAt) };
          if (res.writableFinished) logger.info('mcp_http_response_completed', fields);
          else logger.warn('mcp_http_response_undeliverable', fields);
        }),
      );
      next();
    });
  };
}
