import type { ConnectionLimits } from '@server/gateway/connection-throttle';

/**
 * Tests, journeys and load tools connect every simulated user from 127.0.0.1: to the per-address
 * limits (the gateway's SOCKET_CONNECT_RATE and SOCKET_MAX_PER_ADDRESS, the api's market reads
 * MARKET_READ_RATE; DECISIONS.md) they are all one client. Servers they start say so explicitly
 * with these, rather than the limits being off by default anywhere.
 */
export const oneAddressSocketEnv = {
  SOCKET_CONNECT_RATE: 'off',
  SOCKET_MAX_PER_ADDRESS: 'off',
  MARKET_READ_RATE: 'off',
} as const;

/** The same for a gateway built in-process with `createGateway`. */
export const oneAddressLimits: ConnectionLimits = { perMinute: null, maxPerAddress: null };
