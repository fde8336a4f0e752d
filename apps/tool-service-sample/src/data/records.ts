import customers from './customers.json';
import orders from './orders.json';
import products from './products.json';

/** The bundled, invented data behind the business tools. data/records.spec.ts checks it against these types. */

export const CUSTOMER_ID_PATTERN = '^C[0-9]{4}$';

export const ORDER_STATUSES = ['pending', 'paid', 'shipped', 'delivered', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export interface Customer {
  readonly customerId: string;
  readonly name: string;
  readonly contactEmail: string;
  readonly tier: 'standard' | 'silver' | 'gold';
  readonly city: string;
  readonly customerSince: string;
}

export interface Order {
  readonly orderId: string;
  readonly customerId: string;
  readonly status: OrderStatus;
  /** ISO date, so string order is date order. */
  readonly placedOn: string;
  readonly items: ReadonlyArray<{ readonly sku: string; readonly quantity: number }>;
  readonly totalCents: number;
}

export interface Product {
  readonly sku: string;
  readonly name: string;
  readonly description: string;
  readonly priceCents: number;
  readonly inStock: boolean;
}

// JSON imports type string unions as plain strings; the spec proves the narrowing holds.
export const CUSTOMERS = customers as readonly Customer[];
export const ORDERS = orders as readonly Order[];
export const PRODUCTS = products as readonly Product[];
