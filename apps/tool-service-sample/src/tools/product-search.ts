import { PRODUCTS } from '../data/records';
import { dataReply } from '../http/reply';
import { DEFAULT_TIMEOUT_MILLIS, defineTool, READ_ONLY } from './define-tool';

const DEFAULT_MAX_RESULTS = 10;

export const productSearchTool = defineTool<{ query: string; maxResults?: number }>({
  name: 'product_search',
  title: 'Search the product catalogue',
  description:
    'Finds products whose name or description contains the query (case-insensitive). ' +
    'Each product has its SKU, name, description, price in cents and whether it is in stock.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, maxLength: 200, description: 'Text to look for, e.g. "whiteboard".' },
      maxResults: { type: 'integer', minimum: 1, maximum: 20, default: DEFAULT_MAX_RESULTS, description: 'Most products to return.' },
    },
    required: ['query'],
    additionalProperties: false,
  },
  annotations: READ_ONLY,
  timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
  handle: ({ query, maxResults = DEFAULT_MAX_RESULTS }) => {
    const needle = query.toLowerCase();
    return dataReply(
      PRODUCTS.filter((product) => `${product.name}\n${product.description}`.toLowerCase().includes(needle)).slice(0, maxResults),
    );
  },
});
