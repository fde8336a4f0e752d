import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { invalidRequest } from '@toolmesh/protocol';
import type { Logger } from '../logging/logger';
import { CallerHeader, readCorrelationHeaders, type CorrelationValues } from './correlation-headers';
import { sendJsonRpcError } from './error-responses';

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
export function correlatedRequest(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const receivedAt = performance.now();
    const values = correlate(req, res);
    if (!values) return;
    res.locals.correlation = values; // for the handler of the request's method
    const httpMethod = req.method;
    logger.info('mcp_http_request_received', { httpMethod }, values);
    res.once('close', () => {
      const fields = { httpMethod, status: res.statusCode, durationMs: Math.round(performance.now() - receivedAt) };
      if (res.writableFinished) logger.info('mcp_http_response_completed', fields, values);
      else logger.warn('mcp_http_response_undeliverable', fields, values);
    });
    next();
  };
}
