/** Maps inbound MCP notifications to external events that wake a waiting agent. Built in issue #6. */
export {};
