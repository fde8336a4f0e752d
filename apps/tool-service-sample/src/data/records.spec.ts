import { CUSTOMER_ID_PATTERN, CUSTOMERS, ORDER_STATUSES, ORDERS, PRODUCTS } from './records';

/** The JSON files are typed by a cast in records.ts; these checks are what makes the cast true. */
describe('bundled sample data', () => {
  const customerIds = new Set(CUSTOMERS.map((customer) => customer.customerId));
  const pricesBySku = new Map(PRODUCTS.map((product) => [product.sku, product.priceCents]));

  it('has unique ids', () => {
    expect(customerIds.size).toBe(CUSTOMERS.length);
    expect(new Set(ORDERS.map((order) => order.orderId)).size).toBe(ORDERS.length);
    expect(pricesBySku.size).toBe(PRODUCTS.length);
  });

  it('has customer ids the customer_lookup schema accepts, and known tiers', () => {
    for (const customer of CUSTOMERS) {
      expect(customer.customerId).toMatch(new RegExp(CUSTOMER_ID_PATTERN));
      expect(['standard', 'silver', 'gold']).toContain(customer.tier);
    }
  });

  it('has orders of known customers, in known statuses, for known products, with matching totals', () => {
    for (const order of ORDERS) {
      expect(customerIds.has(order.customerId)).toBe(true);
      expect(ORDER_STATUSES).toContain(order.status);
      expect(order.placedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      const total = order.items.reduce((sum, item) => sum + (pricesBySku.get(item.sku) ?? Number.NaN) * item.quantity, 0);
      expect([order.orderId, total]).toEqual([order.orderId, order.totalCents]);
    }
  });
});
