import fs from 'node:fs';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { configSchema } from '@server/config';
import { healthRoutes } from '@server/platform/http/health';
import { repoRoot } from '@tests/support/processes';

/**
 * deploy/k8s: every manifest validated against the Kubernetes OpenAPI schemas of the
 * `kubernetes-models` package (offline: the schemas are compiled into the package), and the
 * references between them checked: selectors, ports, probes, environment names, grace periods.
 */

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  file: string;
}

interface Container {
  name: string;
  command?: string[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  env?: { name: string }[];
  ports?: { name?: string; containerPort: number }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
}
interface Probe {
  httpGet?: { path: string; port: string | number };
}
interface PodSpec {
  containers: Container[];
  terminationGracePeriodSeconds?: number;
  volumes?: { persistentVolumeClaim?: { claimName: string } }[];
}
interface DeploymentSpec {
  replicas: number;
  selector: { matchLabels: Record<string, string> };
  template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
}

const dir = path.join(repoRoot, 'deploy/k8s');
const manifests: Manifest[] = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .flatMap((file) =>
    parseAllDocuments(fs.readFileSync(path.join(dir, file), 'utf8')).map((doc) => {
      if (doc.errors.length) throw new Error(`${file}: ${doc.errors[0]!.message}`);
      return { ...(doc.toJS() as Omit<Manifest, 'file'>), file };
    }),
  );

const of = (kind: string) => manifests.filter((m) => m.kind === kind);
const deployments = () =>
  of('Deployment').map((d) => ({
    name: d.metadata.name,
    spec: d.spec as unknown as DeploymentSpec,
  }));
const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);
/** The Deployments whose pods `selector` selects. */
const selected = (selector: Record<string, string>) =>
  deployments().filter((d) => matches(selector, d.spec.template.metadata.labels));

/** The kubernetes-models class of each apiVersion and kind the example uses. */
const models: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1 Deployment': Deployment,
  'v1 Service': Service,
  'v1 ConfigMap': ConfigMap,
  'v1 Secret': Secret,
  'v1 PersistentVolumeClaim': PersistentVolumeClaim,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2 HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1 Ingress': Ingress,
};

/** Validates `body` against the Kubernetes schema of its apiVersion and kind. */
function validate(body: object & { apiVersion: string; kind: string }): void {
  const Model = models[`${body.apiVersion} ${body.kind}`];
  if (!Model) throw new Error(`no schema here for ${body.apiVersion} ${body.kind}`);
  new Model(body as never).validate();
}

describe('the Kubernetes example (deploy/k8s)', () => {
  it('has every role and the objects around them', () => {
    expect(
      deployments()
        .map((d) => d.name)
        .sort(),
    ).toEqual(['trade-api', 'trade-gateway', 'trade-sim', 'trade-watcher', 'trade-worker']);
    for (const kind of [
      'Service',
      'PodDisruptionBudget',
      'HorizontalPodAutoscaler',
      'ConfigMap',
      'Secret',
      'Ingress',
    ])
      expect(of(kind).length, kind).toBeGreaterThan(0);
    const sim = deployments().find((d) => d.name === 'trade-sim')!;
    expect(sim.spec.replicas).toBe(2); // one leads, one stands by
  });

  it('validates every manifest against the Kubernetes schemas', () => {
    for (const { file, ...body } of manifests)
      expect(() => validate(body), `${file}: ${body.kind} ${body.metadata.name}`).not.toThrow();
  });

  it('the validator refuses a manifest that breaks the schema', () => {
    const api = of('Deployment').find((d) => d.metadata.name === 'trade-api')!;
    const { file: _file, ...body } = structuredClone(api);
    const spec = body.spec as unknown as DeploymentSpec;
    (spec.template.spec.containers[0]!.ports![0] as { containerPort: unknown }).containerPort =
      'http';
    expect(() => validate(body)).toThrow(/containerPort/);
    const { file: _f, ...noSelector } = structuredClone(api);
    delete (noSelector.spec as Partial<DeploymentSpec>).selector;
    expect(() => validate(noSelector)).toThrow(/selector/);
  });

  it('selects pods by labels they carry: Deployments, Services, budgets, the autoscaler', () => {
    for (const d of deployments())
      expect(matches(d.spec.selector.matchLabels, d.spec.template.metadata.labels), d.name).toBe(
        true,
      );
    for (const s of of('Service')) {
      const spec = s.spec as { selector: Record<string, string>; ports: { targetPort: string }[] };
      const pods = selected(spec.selector);
      expect(
        pods.map((p) => p.name),
        s.metadata.name,
      ).toHaveLength(1);
      const ports = pods[0]!.spec.template.spec.containers.flatMap((c) => c.ports ?? []);
      for (const p of spec.ports) expect(ports.map((x) => x.name)).toContain(p.targetPort);
    }
    for (const pdb of of('PodDisruptionBudget')) {
      const spec = pdb.spec as {
        minAvailable: number;
        selector: { matchLabels: Record<string, string> };
      };
      const pods = selected(spec.selector.matchLabels);
      expect(pods, pdb.metadata.name).toHaveLength(1);
      // A budget of all the replicas would block every drain of a node.
      expect(spec.minAvailable).toBeLessThan(pods[0]!.spec.replicas);
    }
    for (const hpa of of('HorizontalPodAutoscaler')) {
      const spec = hpa.spec as {
        scaleTargetRef: { kind: string; name: string };
        minReplicas: number;
        maxReplicas: number;
        metrics: { pods?: { metric: { name: string } } }[];
      };
      expect(spec.scaleTargetRef.kind).toBe('Deployment');
      expect(deployments().map((d) => d.name)).toContain(spec.scaleTargetRef.name);
      expect(spec.minReplicas).toBeLessThanOrEqual(spec.maxReplicas);
      // gateway_sockets comes from prometheus-adapter over the gateways' own series.
      expect(spec.metrics.map((m) => m.pods?.metric.name)).toContain('gateway_sockets');
      expect(
        fs.readFileSync(path.join(repoRoot, 'server/src/platform/metrics-families.ts'), 'utf8'),
      ).toContain("'gateway_connected_sockets'");
    }
  });

  it('routes the ingress to Services and ports that exist, sockets to the gateways', () => {
    const services = new Map(
      of('Service').map((s) => [
        s.metadata.name,
        (s.spec as { ports: { name: string }[] }).ports.map((p) => p.name),
      ]),
    );
    const backends = of('Ingress').flatMap((i) =>
      (
        i.spec as {
          rules: {
            http: {
              paths: {
                path: string;
                backend: { service: { name: string; port: { name: string } } };
              }[];
            };
          }[];
        }
      ).rules.flatMap((r) => r.http.paths),
    );
    for (const b of backends)
      expect(services.get(b.backend.service.name)).toContain(b.backend.service.port.name);
    expect(backends.find((b) => b.path === '/socket.io/')?.backend.service.name).toBe(
      'trade-gateway',
    );
    expect(backends.find((b) => b.path === '/')?.backend.service.name).toBe('trade-api');
  });

  it('probes /readyz and /healthz, which every role answers', async () => {
    const app = express().use(healthRoutes({ ok: () => true }));
    for (const d of deployments())
      for (const c of d.spec.template.spec.containers) {
        const names = (c.ports ?? []).map((p) => p.name);
        expect(c.readinessProbe?.httpGet?.path, d.name).toBe('/readyz');
        expect(c.livenessProbe?.httpGet?.path, d.name).toBe('/healthz');
        for (const probe of [c.readinessProbe!, c.livenessProbe!]) {
          expect(names).toContain(probe.httpGet!.port);
          expect((await request(app).get(probe.httpGet!.path)).status).toBe(200);
        }
        // The entry point it runs exists.
        const entry = /^dist\/server\/(\w+)\.js$/.exec(c.command?.[1] ?? '')?.[1];
        expect(fs.existsSync(path.join(repoRoot, `server/src/main/${entry}.ts`)), d.name).toBe(
          true,
        );
      }
  });

  it('sets only variables the configuration knows, from a ConfigMap and a Secret that exist', () => {
    const known = Object.keys(configSchema.shape);
    const maps = new Map(of('ConfigMap').map((m) => [m.metadata.name, m.data ?? {}]));
    const secrets = new Map(of('Secret').map((s) => [s.metadata.name, s.stringData ?? {}]));
    for (const [name, data] of [...maps, ...secrets])
      for (const key of Object.keys(data)) expect(known, `${name}: ${key}`).toContain(key);
    for (const d of deployments())
      for (const c of d.spec.template.spec.containers) {
        for (const from of c.envFrom ?? []) {
          if (from.configMapRef) expect([...maps.keys()]).toContain(from.configMapRef.name);
          if (from.secretRef) expect([...secrets.keys()]).toContain(from.secretRef.name);
        }
        for (const e of c.env ?? []) expect(known).toContain(e.name);
      }
    // The secrets are in the Secret, not the ConfigMap.
    for (const data of maps.values())
      expect(Object.keys(data)).not.toEqual(
        expect.arrayContaining(['DATABASE_URL', 'REDIS_URL', 'OPERATOR_TOKEN']),
      );
  });

  it('gives every pod longer to stop than its preStop sleep, drain and shutdown take', () => {
    const common = of('ConfigMap')[0]!.data!;
    const shutdownMs = Number(common.SHUTDOWN_TIMEOUT_MS) + Number(common.SHUTDOWN_DRAIN_MS ?? 0);
    const claims = of('PersistentVolumeClaim').map((p) => p.metadata.name);
    for (const d of deployments()) {
      const pod = d.spec.template.spec;
      for (const c of pod.containers) {
        const sleep = c.lifecycle?.preStop?.exec?.command;
        const sleepMs = sleep ? Number(sleep[1]) * 1000 : 0;
        if (sleep) expect(sleep[0]).toBe('sleep');
        expect(pod.terminationGracePeriodSeconds! * 1000, d.name).toBeGreaterThan(
          sleepMs + shutdownMs,
        );
      }
      for (const v of pod.volumes ?? [])
        if (v.persistentVolumeClaim) expect(claims).toContain(v.persistentVolumeClaim.claimName);
    }
    // Pods behind a Service wait for their endpoint to be removed before SIGTERM.
    for (const name of ['trade-api', 'trade-gateway']) {
      const pod = deployments().find((d) => d.name === name)!.spec.template.spec;
      expect(pod.containers[0]!.lifecycle?.preStop?.exec?.command[0], name).toBe('sleep');
    }
  });
});
