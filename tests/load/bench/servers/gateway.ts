import { installProbe, send } from '../ipc';

/**
 * (c) Our gateway, unchanged: the real entry point `server/src/main/gateway.ts` (createGateway,
 * the Redis bus, the Redis adapter, /metrics), configured by env (PORT, HOST, REDIS_URL,
 * REDIS_NAMESPACE) as in production. This wrapper only adds the benchmark's CPU/heap probe.
 */
installProbe();
// The entry point's top-level await resolves once the bus is subscribed and the port is bound.
await import('../../../../server/src/main/gateway');
send({ type: 'ready' });
