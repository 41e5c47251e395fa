import type { ConnectionLimits } from '@server/gateway/connection-throttle';

/**
 * Tests, journeys and load tools connect every simulated user from 127.0.0.1: to the gateway's
 * per-address limits (SOCKET_CONNECT_RATE, SOCKET_MAX_PER_ADDRESS; DECISIONS.md) they are all one
 * client. Servers they start say so explicitly with these, rather than the limits being off by
 * default anywhere.
 */
export const oneAddressSocketEnv = {
  SOCKET_CONNECT_RATE: 'off',
  SOCKET_MAX_PER_ADDRESS: 'off',
} as const;

/** The same for a gateway built in-process with `createGateway`. */
export const oneAddressLimits: ConnectionLimits = { perMinute: null, maxPerAddress: null };
