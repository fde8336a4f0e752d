import { McpMethod, McpNotification } from './methods';
import {
  isModernProtocolVersion,
  LATEST_PROTOCOL_VERSION,
  McpMetaKey,
  MODERN_PROTOCOL_VERSIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
} from './versions';

describe('MCP constants taken from the SDK', () => {
  it('names the methods as the specification does', () => {
    expect(McpMethod).toMatchObject({
      Initialize: 'initialize',
      Ping: 'ping',
      ToolsList: 'tools/list',
      ToolsCall: 'tools/call',
      ResourcesRead: 'resources/read',
      PromptsGet: 'prompts/get',
      ServerDiscover: 'server/discover',
      SubscriptionsListen: 'subscriptions/listen',
    });
    expect(McpNotification).toMatchObject({
      Initialized: 'notifications/initialized',
      Cancelled: 'notifications/cancelled',
      ToolsListChanged: 'notifications/tools/list_changed',
      ResourceUpdated: 'notifications/resources/updated',
      SubscriptionsAcknowledged: 'notifications/subscriptions/acknowledged',
    });
    expect(McpMetaKey.ProtocolVersion).toBe('io.modelcontextprotocol/protocolVersion');
    expect(McpMetaKey.Traceparent).toBe('traceparent');
  });

  it('knows every revision the gateway serves (SPEC "Protocol versions")', () => {
    expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual(expect.arrayContaining(['2025-03-26', '2025-06-18', '2025-11-25']));
    expect(SUPPORTED_PROTOCOL_VERSIONS).toContain(LATEST_PROTOCOL_VERSION);
  });

  it('tells the stateless revisions from the initialize-based ones, unknown future dates included', () => {
    expect(MODERN_PROTOCOL_VERSIONS).toEqual(['2026-07-28']);
    expect(MODERN_PROTOCOL_VERSIONS.every(isModernProtocolVersion)).toBe(true);
    expect(SUPPORTED_PROTOCOL_VERSIONS.some(isModernProtocolVersion)).toBe(false);
    expect(isModernProtocolVersion('2027-01-01')).toBe(true);
    expect(isModernProtocolVersion('2026-07-28x')).toBe(false);
    expect(isModernProtocolVersion('draft')).toBe(false);
  });
});
