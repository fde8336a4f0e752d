import { AgentErrorCode } from '../errors/agent-errors';
import type { Tool } from './tool';
import { ToolRegistry } from './tool-registry';

const tool = (name: string): Tool => ({
  name,
  description: '',
  inputSchema: { type: 'object' },
  sideEffects: { level: 'read-only', destructive: false, basis: 'declared' },
  checkArguments: () => undefined,
  execute: async () => ({ isError: false, content: [] }),
});

describe('ToolRegistry', () => {
  it('lists tools sorted by name and finds them by name', () => {
    const registry = new ToolRegistry();
    registry.register(tool('b'));
    registry.register(tool('a'));
    expect(registry.list().map((t) => t.name)).toEqual(['a', 'b']);
    expect(registry.get('b')?.name).toBe('b');
    expect(registry.get('c')).toBeUndefined();
  });

  it('refuses a second tool of the same name', () => {
    const registry = new ToolRegistry();
    registry.register(tool('a'));
    expect(() => registry.register(tool('a'))).toThrow(expect.objectContaining({ code: AgentErrorCode.DuplicateTool }));
  });
});
