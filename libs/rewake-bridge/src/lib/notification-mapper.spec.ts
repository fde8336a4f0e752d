import type { ServerNotification } from '@toolmesh/protocol';

import { SUMMARY_FIELD_MAX_CHARS } from './event-summary';
import type { MappingRule } from './mapping-rule';
import { NotificationMapper } from './notification-mapper';
import { RewakeErrorCode } from './rewake-errors';

const AT = new Date('2026-11-30T10:00:00.000Z');
const notification = (method: string, params?: Record<string, unknown>, server = 'jobs'): ServerNotification => ({
  server,
  notification: { jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) },
  receivedAt: AT,
});

describe('NotificationMapper', () => {
  describe('default rules', () => {
    const mapper = new NotificationMapper();

    it('maps a resource update to resource.updated with its uri', () => {
      expect(mapper.map(notification('notifications/resources/updated', { uri: 'file:///srv/report.csv' }))).toEqual({
        server: 'jobs',
        type: 'resource.updated',
        method: 'notifications/resources/updated',
        summary: { uri: 'file:///srv/report.csv' },
        receivedAt: '2026-11-30T10:00:00.000Z',
      });
    });

    it('maps a log message to log with its level, logger and data (non-text data as JSON)', () => {
      expect(mapper.map(notification('notifications/message', { level: 'error', logger: 'db', data: { code: 7 } }))).toMatchObject({
        type: 'log',
        summary: { level: 'error', logger: 'db', data: '{"code":7}' },
      });
    });

    it('maps nothing else: list changes, progress, cancellation and unknown methods are no events', () => {
      for (const method of [
        'notifications/tools/list_changed',
        'notifications/resources/list_changed',
        'notifications/prompts/list_changed',
        'notifications/progress',
        'notifications/cancelled',
        'notifications/custom/thing',
      ]) {
        expect({ method, event: mapper.map(notification(method, { progressToken: 1 })) }).toEqual({ method, event: undefined });
      }
    });

    it('can be switched off, leaving only the configured rules', () => {
      const only = new NotificationMapper([{ method: 'jobs/done', type: 'job.done' }], { defaults: false });
      expect(only.map(notification('notifications/message', { level: 'info', data: 'x' }))).toBeUndefined();
      expect(only.map(notification('jobs/done'))?.type).toBe('job.done');
    });
  });

  describe('configured rules', () => {
    const rules: MappingRule[] = [
      { method: 'notifications/message', minLevel: 'warning', type: 'alert' },
      { method: 'notifications/message', type: 'ignored-log', server: 'quiet' },
      { method: 'notifications/resources/updated', uriPrefix: 'file:///reports/', type: 'report.ready' },
      { method: 'notifications/jobs/*', type: 'job' },
      { method: 'custom/*/done', type: 'done' },
    ];
    const mapper = new NotificationMapper(rules);
    const type = (method: string, params?: Record<string, unknown>, server?: string) =>
      mapper.map(notification(method, params, server))?.type;

    it('come before the defaults, the first match deciding', () => {
      expect(type('notifications/message', { level: 'critical' })).toBe('alert');
      expect(type('notifications/message', { level: 'info' })).toBe('log');
      expect(type('notifications/message', { level: 'info' }, 'quiet')).toBe('ignored-log');
      expect(type('notifications/resources/updated', { uri: 'file:///reports/q3.pdf' })).toBe('report.ready');
      expect(type('notifications/resources/updated', { uri: 'file:///tmp/x' })).toBe('resource.updated');
    });

    it('match a method glob, where * spans any characters (slashes too) and other characters are literal', () => {
      expect(type('notifications/jobs/build/finished')).toBe('job');
      expect(type('custom/a/b/done')).toBe('done');
      expect(type('custom/a/done/not')).toBeUndefined();
      expect(type('notificationsXjobs/a')).toBeUndefined();
    });

    it('never turn protocol notifications into events, even through a broad glob', () => {
      const broad = new NotificationMapper([{ method: '*', type: 'anything' }]);
      expect(broad.map(notification('notifications/custom'))?.type).toBe('anything');
      expect(broad.map(notification('notifications/tools/list_changed'))).toBeUndefined();
      expect(broad.map(notification('notifications/progress', { progressToken: 1, progress: 1 }))).toBeUndefined();
    });

    it('do not match a minimum level when the level is missing or unknown', () => {
      expect(type('notifications/message', { level: 'loud' })).toBe('log');
      expect(type('notifications/message', {})).toBe('log');
    });

    it('summarize a custom method by its params other than uri, level and logger', () => {
      expect(mapper.map(notification('notifications/jobs/done', { jobId: 'j-1', status: 'ok', _meta: { x: 1 } }))?.summary).toEqual({
        data: '{"jobId":"j-1","status":"ok"}',
      });
    });
  });

  it('bounds every summary field', () => {
    const long = 'x'.repeat(SUMMARY_FIELD_MAX_CHARS * 3);
    const event = new NotificationMapper().map(notification('notifications/message', { level: 'info', logger: long, data: { long } }));
    expect(event?.summary.logger).toHaveLength(SUMMARY_FIELD_MAX_CHARS);
    expect(event?.summary.data).toHaveLength(SUMMARY_FIELD_MAX_CHARS);
    expect(event?.summary.data?.endsWith('…')).toBe(true);
  });

  it.each([
    ['an empty method', { method: ' ', type: 'x' }, /rewake rule 1: method must be a method name or a glob/],
    ['an event type with capitals', { method: 'a', type: 'Job' }, /rewake rule 1: type must be at most 64 lowercase letters/],
    [
      'an unknown log level',
      { method: 'a', type: 'x', minLevel: 'loud' },
      /rewake rule 1: minLevel must be one of debug, info, notice, warning, error, critical, alert, emergency/,
    ],
    ['an empty uri prefix', { method: 'a', type: 'x', uriPrefix: '' }, /rewake rule 1: uriPrefix must be a non-empty string/],
  ])('refuses a rule with %s, naming the rule and the field', (_, rule, message) => {
    expect(() => new NotificationMapper([rule as MappingRule])).toThrow(
      expect.objectContaining({ code: RewakeErrorCode.InvalidRule, message: expect.stringMatching(message) }),
    );
  });
});
