import type { IncomingMessage, ServerResponse } from 'node:http';

import { invalidRequest } from '@toolmesh/protocol';
import type { NextFunction, Request, Response } from 'express';

import type { LogCorrelation, Logger } from '../logging/logger';
import { CallerHeader, type CorrelationValues, readCorrelationHeaders } from './correlation-headers';
import { sendJsonRpcError } from './error-responses';

/**
 * A request's correlation ids, read or generated (SPEC G2); `undefined` when a header cannot be used, which
 * has been answered with a JSON-RPC 400 saying which. The ids are not echoed yet: see `echoCorrelation`.
 */
export function readCorrelation(req: IncomingMessage, res: ServerResponse): CorrelationValues | undefined {
  const correlation = readCorrelationHeaders(req);
  if (!correlation.ok) {
    sendJsonRpcError(res, 400, invalidRequest(null, `header ${correlation.header} ${correlation.problem}`));
    return undefined;
  }
  return correlation.values;
}

/** Echoes a request's correlation ids on its answer (SPEC G2), for answers not written by `correlatedHeaders`. */
export function echoCorrelation(res: ServerResponse, values: LogCorrelation): void {
  res.setHeader(CallerHeader.Guid, values.guid);
  res.setHeader(CallerHeader.RequestId, values.requestId);
}

/**
 * An answer's headers with the request's correlation ids, as the flat list `writeHead` takes. An answer
 * whose headers all go to `writeHead` this way skips `setHeader`, whose validation and bookkeeping per
 * header were a visible share of the hot path's CPU (docs/adr/0005-gateway-hot-path.md, eighth round).
 */
export function correlatedHeaders(values: LogCorrelation, ...headers: Array<string | number>): Array<string | number> {
  headers.push(CallerHeader.Guid, values.guid, CallerHeader.RequestId, values.requestId);
  return headers;
}

/**
 * For the endpoint's other methods (GET, DELETE, OPTIONS), as the POST exchange does: correlation ids read
 * or generated and echoed, and one line when the request arrives and one when its answer is done, both
 * carrying the ids (SPEC G2, G26); the values are in `res.locals.correlation` for the handler. Only the HTTP method is logged: these requests carry no JSON-RPC method.
 */
export function correlatedRequest(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const receivedAt = performance.now();
    const values = readCorrelation(req, res);
    if (!values) return;
    echoCorrelation(res, values);
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
