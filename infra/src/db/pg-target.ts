/**
 * A PostgreSQL URL that may name several hosts, as libpq's do:
 * `postgres://user:pw@db1:5432,db2:5432/trade?target_session_attrs=read-write`. The `pg` driver
 * takes one host, so each host gets a URL of its own; `target_session_attrs=read-write` asks for
 * the one that accepts writes (the primary, after any promotion), `any` (the default) for the
 * first that answers.
 */
export interface PgTarget {
  /** One URL per host, in the order given (the driver's form: one host each). */
  hostUrls: string[];
  readWrite: boolean;
}

const pattern = /^(postgres(?:ql)?):\/\/(?:([^@/?#]*)@)?([^/?#]*)(\/[^?#]*)?(?:\?([^#]*))?$/;
const hostPattern = /^(\[[0-9a-fA-F:.]+\]|[^:,[\]]+)(?::(\d{1,5}))?$/;

/** Parses `url`; throws with a reason a configuration error can show. */
export function parsePgTarget(url: string): PgTarget {
  const m = pattern.exec(url);
  if (!m) throw new Error('not a postgres:// URL');
  const [, scheme, userinfo, hostList = '', path = '', query = ''] = m;
  const hosts = (hostList || 'localhost').split(',').map((h) => {
    const hm = hostPattern.exec(h);
    const port = Number(hm?.[2] ?? 5432);
    if (!hm || port < 1 || port > 65_535) throw new Error(`not host[:port]: ${h}`);
    return `${hm[1]}:${port}`;
  });
  const params = new URLSearchParams(query);
  const attrs = params.get('target_session_attrs') ?? 'any';
  if (attrs !== 'any' && attrs !== 'read-write')
    throw new Error('target_session_attrs must be any or read-write');
  params.delete('target_session_attrs');
  const rest = params.toString();
  return {
    hostUrls: hosts.map(
      (h) => `${scheme}://${userinfo ? `${userinfo}@` : ''}${h}${path}${rest ? `?${rest}` : ''}`,
    ),
    readWrite: attrs === 'read-write',
  };
}
