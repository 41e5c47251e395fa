/**
 * The embedded database's thread (`npm start`): PGlite runs here, migrated, and serves the
 * other threads through MessagePorts in lanes (infra/src/db/ports/serve.ts), the simulator's
 * tape first. No request load on the api's thread can then delay a tape write.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { createPgliteDb } from '@infra/db/pglite';
import { migrate } from '@infra/db/migrate';
import { serveDb, type DbLane } from '@infra/db/ports/serve';

export type DbThreadMessage =
  { kind: 'connect'; port: MessagePort; lane: DbLane } | { kind: 'close' };

const { dataDir, countStatementsS } = workerData as { dataDir: string; countStatementsS?: number };
const engine = await createPgliteDb(dataDir);
await migrate(engine);
const served = serveDb(engine, { countStatementsS });
parentPort!.on('message', (m: DbThreadMessage) => {
  if (m.kind === 'connect') served.connect(m.port, m.lane);
  else
    void served
      .close()
      .then(() => engine.close())
      .then(() => parentPort!.postMessage({ kind: 'closed' }));
});
parentPort!.postMessage({ kind: 'ready' });
