import { McpMethod, McpNotification } from './methods';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from './versions';

describe('MCP constants taken from the SDK', () => {
  it('names the methods as the specification does', () => {
    expect(McpMethod).toMatchObject({
      Initialize: 'initialize',
      Ping: 'ping',
      ToolsList: 'tools/list',
      ToolsCall: 'tools/call',
      ResourcesRead: 'resources/read',
      PromptsGet: 'prompts/get',
    });
    expect(McpNotification).toMatchObject({
      Initialized: 'notifications/initialized',
      Cancelled: 'notifications/cancelled',
      ToolsListChanged: 'notifications/tools/list_changed',
      ResourceUpdated: 'notifications/resources/updated',
    });
  });

  it('knows every revision the gateway serves (SPEC "Protocol versions")', () => {
    expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual(expect.arrayContaining(['2025-03-26', '2025-06-18', '2025-11-25']));
    expect(SUPPORTED_PROTOCOL_VERSIONS).toContain(LATEST_PROTOCOL_VERSION);
  });
});
