import { fileURLToPath } from 'node:url';

/** Path aliases shared by Vite and Vitest; the same map as `paths` in tsconfig.base.json. */
const root = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export const aliases = {
  '@shared': root('./shared/src'),
  '@server': root('./server/src'),
  '@sim': root('./market-sim/src'),
  '@infra': root('./infra/src'),
  '@client': root('./client/src'),
  '@tests': root('./tests'),
};
