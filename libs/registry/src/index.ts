/**
 * The gateway's tool catalogue: portal registry, manifest discovery and validation, last-good snapshots,
 * TTL refresh with single-flight, Redis warm start. The only library allowed to import ioredis. Built in issue #4.
 */
export {};
