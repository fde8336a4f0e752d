import { customHeadersTool, elicitationTool, jsonSchema2020Tool, loggingTool, missingCapabilityTool } from './conformance-2026-tools';
import { testErrorHandlingTool, testSimpleTextTool } from './conformance-tools';
import { customerLookupTool } from './customer-lookup';
import type { Tool } from './define-tool';
import { echoTextTool } from './echo-text';
import { alwaysFailsTool, missingDataFieldTool, nonJsonReplyTool, retiredToolTool } from './faulty-replies';
import { INPUT_REQUIRED_TOOLS } from './input-required-tools';
import { LONG_RUNNING_TOOLS } from './long-running-tools';
import { orderSearchTool } from './order-search';
import { productSearchTool } from './product-search';
import { serviceInfoTool } from './service-info';
import { slowOperationTool } from './slow-operation';

export type { Tool } from './define-tool';

/**
 * The tools this service always offers, in manifest order; the manifest and the routes are built from them
 * and from `test_trigger_tool_change` with what it adds (changing-tools.ts).
 */
export const TOOLS: readonly Tool[] = [
  echoTextTool,
  serviceInfoTool(() => TOOLS.length),
  customerLookupTool,
  orderSearchTool,
  productSearchTool,
  slowOperationTool,
  alwaysFailsTool,
  retiredToolTool,
  nonJsonReplyTool,
  missingDataFieldTool,
  testSimpleTextTool,
  testErrorHandlingTool,
  jsonSchema2020Tool,
  customHeadersTool,
  loggingTool,
  missingCapabilityTool,
  elicitationTool,
  ...INPUT_REQUIRED_TOOLS,
  ...LONG_RUNNING_TOOLS,
];
