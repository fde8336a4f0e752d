{{/* Names and labels. */}}
{{- define "toolmesh-gateway.fullname" -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "toolmesh-gateway.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/* Every template's labels; the release's rules are checked first, so no template renders without them. */}}
{{- define "toolmesh-gateway.labels" -}}
{{- include "toolmesh-gateway.validate" . -}}
{{ include "toolmesh-gateway.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
toolmesh.dev/bundle: {{ (index .Values.bundles 0).name }}
{{- end -}}

{{/*
The release's rules, checked by every template (through the labels):
exactly one bundle per release (SPEC G20, seed ADR-0007: another tool service is another release, so one
service's failing manifest never holds back another's catalogue), no secret in the ConfigMap, and a grace
period that covers the gateway's exit after the drain.
*/}}
{{- define "toolmesh-gateway.validate" -}}
{{- if ne (len .Values.bundles) 1 -}}
{{- fail (printf "bundles: a release serves exactly one tool bundle, %d are listed; install one release per bundle, each with its own mcp.endpointPath" (len .Values.bundles)) -}}
{{- end -}}
{{- if dig "mcp" "redis" "url" "" .Values.gatewayConfig -}}
{{- fail "gatewayConfig.mcp.redis.url: the Redis URL may carry a password and would land in a ConfigMap; put it in a Secret and set redis.existingSecret" -}}
{{- end -}}
{{- if lt (int .Values.lifecycle.terminationMarginSeconds) 2 -}}
{{- fail "lifecycle.terminationMarginSeconds must be at least 2: the gateway may take mcp.shutdownDrainMillis plus a second to exit" -}}
{{- end -}}
{{- end -}}

{{/*
Kubernetes counts preStop and the SIGTERM drain against the same grace period, so it must cover both,
with a margin for the gateway's exit after the drain.
*/}}
{{- define "toolmesh-gateway.terminationGracePeriodSeconds" -}}
{{- add .Values.lifecycle.preStopSleepSeconds (div .Values.mcp.shutdownDrainMillis 1000) .Values.lifecycle.terminationMarginSeconds -}}
{{- end -}}

{{/* The gateway configuration (docs/configuration.md) the ConfigMap holds as gateway.yaml. */}}
{{- define "toolmesh-gateway.config" -}}
{{- $fixed := dict
  "server" (dict "host" "0.0.0.0" "port" (int .Values.ports.mcp) "managementPort" (int .Values.ports.management))
  "mcp" (dict
    "endpointPath" .Values.mcp.endpointPath
    "shutdownDrainMillis" (int .Values.mcp.shutdownDrainMillis)
    "bundles" (list (index .Values.bundles 0))) -}}
{{- toYaml (mustMergeOverwrite (deepCopy .Values.gatewayConfig) $fixed) -}}
{{- end -}}
