import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';
import proxyaddr from 'proxy-addr';

export type TrustProxy = (addr: string, hop: number) => boolean;

/** TRUST_PROXY compiled as Express compiles its `trust proxy` string: split on commas, trimmed. */
export function compileTrust(setting: string): TrustProxy {
  return proxyaddr.compile(setting.split(',').map((s) => s.trim()));
}

/**
 * The client's address as Express's `req.ip` gives it: the peer, or, when the peer is a trusted
 * proxy, the nearest X-Forwarded-For entry that is not one (proxy-addr, the code Express uses).
 */
export function clientAddress(req: IncomingMessage, trust: TrustProxy): string {
  if (!req.socket.remoteAddress) return 'unknown'; // the peer left during the handshake
  return proxyaddr(req, trust);
}

/**
 * True when the request carries X-Forwarded-For from a peer TRUST_PROXY does not name: a proxy in
 * front that is not trusted (so every client behind it counts as the proxy's one address), or a
 * client writing the header itself.
 */
export function untrustedForwarding(req: IncomingMessage, trust: TrustProxy): boolean {
  const peer = req.socket.remoteAddress;
  return !!req.headers['x-forwarded-for'] && !!peer && !trust(peer, 0);
}

/**
 * The key per-address limits count under. IPv4 as is (IPv4-mapped IPv6 too). IPv6 by its /64:
 * one subscriber gets at least a /64 and can take any address in it, so counting full addresses
 * would let one client pass as billions. Anything unparsable is kept as is, cut to a bounded length.
 */
export function addressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address.slice(0, 64);
  const ip = ipaddr.process(address);
  if (ip.kind() === 'ipv4') return ip.toString();
  const prefix = (ip as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${prefix.join(':')}::/64`;
}
