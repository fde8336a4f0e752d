import { defineBody, parseTemplate, valueAt } from './chart-source';

describe('reading a chart without helm', () => {
  it('parses a template with its actions opaque and its control lines dropped', () => {
    const template = parseTemplate(
      [
        'spec:',
        '  {{- if .Values.enabled }}',
        '  replicas: {{ .Values.replicaCount }}',
        '  {{- end }}',
        '  labels:',
        '    {{- include "x.labels" . | nindent 4 }}',
        '  annotations:',
        '    fixed: "yes"',
        '    {{- toYaml .Values.podAnnotations | nindent 4 }}',
        '  command: ["sleep", "{{ .Values.sleep }}"]',
      ].join('\n'),
    );
    const spec = template.doc.spec as Record<string, unknown>;
    expect(template.actionOf(spec.replicas)).toBe('.Values.replicaCount');
    expect(template.actionOf(spec.labels)).toBe('include "x.labels" . | nindent 4');
    expect(Object.keys(spec.annotations as object)).toHaveLength(2);
    expect(template.actionOf((spec.command as string[])[1])).toBe('.Values.sleep');
    expect(template.actionOf('sleep')).toBeUndefined();
  });

  it('finds a define past the ends of its own ifs', () => {
    const helpers = '{{- define "a" -}}\n{{- if .X -}}\n{{- fail "no" -}}\n{{- end -}}\nafter\n{{- end -}}\n{{- define "b" -}}b{{- end -}}';
    expect(defineBody(helpers, 'a')).toBe('{{- if .X -}}\n{{- fail "no" -}}\n{{- end -}}\nafter');
    expect(() => defineBody(helpers, 'c')).toThrow('defines no "c"');
  });

  it('resolves plain .Values references only', () => {
    const values = { ports: { management: 9090 } };
    expect(valueAt(values, '.Values.ports.management')).toBe(9090);
    expect(() => valueAt(values, '.Values.ports.mcp')).toThrow('values.yaml has no .Values.ports.mcp');
    expect(() => valueAt(values, 'add .Values.a 1')).toThrow('not a plain .Values reference');
  });
});
