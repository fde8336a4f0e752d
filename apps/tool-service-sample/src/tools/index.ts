import { testErrorHandlingTool, testSimpleTextTool } from './conformance-tools';
import { customerLookupTool } from './customer-lookup';
import type { Tool } from './define-tool';
import { echoTextTool } from './echo-text';
import { alwaysFailsTool, missingDataFieldTool, nonJsonReplyTool, retiredToolTool } from './faulty-replies';
import { orderSearchTool } from './order-search';
import { productSearchTool } from './product-search';
import { serviceInfoTool } from './service-info';
import { slowOperationTool } from './slow-operation';

export type { Tool } from './define-tool';

/** Every tool this service offers, in manifest order; the manifest and the routes are both built from it. */
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
];
