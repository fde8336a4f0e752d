import { CUSTOMER_ID_PATTERN, CUSTOMERS } from '../data/records';
import { dataReply } from '../http/reply';
import { DEFAULT_TIMEOUT_MILLIS, defineTool, READ_ONLY } from './define-tool';

export const customerLookupTool = defineTool<{ customerId: string }>({
  name: 'customer_lookup',
  title: 'Look up a customer',
  description:
    'Returns one customer account by id: name, contact e-mail, service tier, city and the date the account was opened. ' +
    'An unknown id is answered with a short text saying so.',
  inputSchema: {
    type: 'object',
    properties: {
      customerId: { type: 'string', pattern: CUSTOMER_ID_PATTERN, description: 'Customer id, "C" and four digits, e.g. C1001.' },
    },
    required: ['customerId'],
    additionalProperties: false,
  },
  annotations: READ_ONLY,
  timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
  // An unknown customer is a business answer, not an HTTP error: a 404 would make the gateway refresh the manifest.
  handle: ({ customerId }) => dataReply(CUSTOMERS.find((customer) => customer.customerId === customerId) ?? `no customer ${customerId}`),
});
