import { CUSTOMER_ID_PATTERN, ORDER_STATUSES, ORDERS, type OrderStatus } from '../data/records';
import { dataReply } from '../http/reply';
import { DEFAULT_TIMEOUT_MILLIS, defineTool, READ_ONLY } from './define-tool';

const DEFAULT_LIMIT = 10;

export const orderSearchTool = defineTool<{ customerId?: string; status?: OrderStatus; limit?: number }>({
  name: 'order_search',
  title: 'Search orders',
  description:
    'Lists orders, newest first, optionally only those of one customer and/or in one status. ' +
    'Each order has its id, customer, status, date, items (SKU and quantity) and total in cents.',
  inputSchema: {
    type: 'object',
    properties: {
      customerId: { type: 'string', pattern: CUSTOMER_ID_PATTERN, description: 'Only orders of this customer, e.g. C1001.' },
      status: { type: 'string', enum: ORDER_STATUSES, description: 'Only orders in this status.' },
      limit: { type: 'integer', minimum: 1, maximum: 50, default: DEFAULT_LIMIT, description: 'Most orders to return.' },
    },
    additionalProperties: false,
  },
  annotations: READ_ONLY,
  timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
  handle: ({ customerId, status, limit = DEFAULT_LIMIT }) =>
    dataReply(
      ORDERS.filter(
        (order) => (customerId === undefined || order.customerId === customerId) && (status === undefined || order.status === status),
      )
        .toSorted((a, b) => b.placedOn.localeCompare(a.placedOn))
        .slice(0, limit),
    ),
});
