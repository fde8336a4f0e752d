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
service's failing manifest never holds back another's catalogue), no secret in the ConfigMap, a grace
period that covers the gateway's exit after the drain, callers authenticated unless turned off on purpose,
and the management port (no token asked there) behind the chart's NetworkPolicy (docs/deployment.md, "The
management port").
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
{{- if or (hasKey .Values.gatewayConfig "auth") (hasKey .Values.gatewayConfig "rateLimits") -}}
{{- fail "gatewayConfig.auth and gatewayConfig.rateLimits: set them as the chart's auth and rateLimits values, which the chart checks" -}}
{{- end -}}
{{- if and .Values.auth.enabled (or (not .Values.auth.audience) (empty .Values.auth.authorizationServers)) -}}
{{- fail "auth: set auth.audience (the MCP endpoint's URL as clients reach it) and auth.authorizationServers (the issuers whose tokens are accepted); or set auth.enabled=false, and every caller that reaches the MCP port lists and calls every tool without a token" -}}
{{- end -}}
{{- if or (not .Values.networkPolicy.enabled) (empty .Values.networkPolicy.managementFrom) -}}
{{- fail "networkPolicy: the management port answers without a token (bundle state, refreshes, metrics) and listens on the pod's address for the kubelet's probes; keep networkPolicy.enabled and name who may reach it in networkPolicy.managementFrom (an empty list would let every pod in)" -}}
{{- end -}}
{{- end -}}

{{/*
Kubernetes counts preStop and the SIGTERM drain against the same grace period, so it must cover both,
with a margin for the gateway's exit after the drain.
*/}}
{{- define "toolmesh-gateway.terminationGracePeriodSeconds" -}}
{{- add .Values.lifecycle.preStopSleepSeconds (div .Values.mcp.shutdownDrainMillis 1000) .Values.lifecycle.terminationMarginSeconds -}}
{{- end -}}

{{/*
The gateway configuration (docs/configuration.md) the ConfigMap holds as gateway.yaml. Both ports listen on
the pod's address: the kubelet probes the management port there, and monitoring scrapes it; the
NetworkPolicy, which the rules above require, lets only networkPolicy.managementFrom reach it. auth and
rateLimits come from their own values, only the keys the chart knows, so nothing secret reaches the ConfigMap.
*/}}
{{- define "toolmesh-gateway.config" -}}
{{- $fixed := dict
  "server" (dict "host" "0.0.0.0" "port" (int .Values.ports.mcp) "managementHost" "0.0.0.0" "managementPort" (int .Values.ports.management))
  "mcp" (dict
    "endpointPath" .Values.mcp.endpointPath
    "shutdownDrainMillis" (int .Values.mcp.shutdownDrainMillis)
    "bundles" (list (index .Values.bundles 0))) -}}
{{- $config := mustMergeOverwrite (deepCopy .Values.gatewayConfig) $fixed -}}
{{- if .Values.auth.enabled -}}
{{- $_ := set $config "auth" (pick .Values.auth "audience" "authorizationServers" "scopesSupported" "toolPolicies") -}}
{{- end -}}
{{- if .Values.rateLimits.enabled -}}
{{- $_ := set $config "rateLimits" (pick .Values.rateLimits "perCaller" "perTool") -}}
{{- end -}}
{{- toYaml $config -}}
{{- end -}}
