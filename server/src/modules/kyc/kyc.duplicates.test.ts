import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpsKycSubmission } from '@shared/kyc/model';
import { dbDrivers, openTestDb, type TestDb } from '@tests/support/db';
import { OPERATOR_TOKEN, buildTestApi, registerUser, type TestApi } from '@tests/support/api';
import { repoRoot } from '@tests/support/processes';
import { itemsOf, opsAuth, postKyc, type TestUser } from '@tests/support/wallet';

const run = promisify(execFile);

let serial = 0;
/** A mainland China ID number no other test uses (the format is checked, not the check digit). */
const freshCnId = () => `3301061990${String(++serial).padStart(7, '0')}X`;

/**
 * Issue 16: an ID number already held by another account (verified, or under review) is shown to
 * the operator beside the check, never refused: families share phones, typos happen.
 */
describe.each(dbDrivers())(
  'identity checks with an ID number another account holds, on %s',
  (kind) => {
    let t: TestDb;
    let api: TestApi;
    beforeAll(async () => {
      t = await openTestDb(kind);
      api = await buildTestApi(t.db);
    });
    afterAll(async () => {
      await api.close();
      await t.drop();
    });

    const submit = (u: TestUser, idNumber: string, nationality = 'CN') =>
      postKyc(api, u.auth, { name: 'Li Si', idNumber, nationality }).expect(201);
    const checkOf = async (u: TestUser, status = 'pending') => {
      const res = await api.http.get(`/api/ops/kyc?status=${status}&limit=100`).set(opsAuth);
      return itemsOf<OpsKycSubmission>(res).find((k) => k.userId === u.user.id)!;
    };
    const approve = async (u: TestUser) =>
      (
        await api.http
          .post(`/api/ops/kyc/${(await checkOf(u)).id}/approve`)
          .set(opsAuth)
          .expect(200)
      ).body as OpsKycSubmission;
    const holder = (u: TestUser, status: string) => ({
      userId: u.user.id,
      userAccount: u.account,
      status,
    });

    it('shows the account that verified the number beside a second account’s check, and lets the operator verify it', async () => {
      const [first, second, other] = [
        await registerUser(api, 'idfirst'),
        await registerUser(api, 'idsecond'),
        await registerUser(api, 'idother'),
      ];
      // The 15-digit number issued before 1999 and the 18-digit one it became are one number.
      await submit(first, '11010519491231002X');
      expect((await approve(first)).sameIdNumber).toEqual([]);
      await submit(second, '110105491231002');
      await submit(other, freshCnId());

      const flagged = await checkOf(second);
      expect(flagged.idNumber).toBe('110105491231002');
      expect(flagged.sameIdNumber).toEqual([holder(first, 'verified')]);
      expect((await checkOf(other)).sameIdNumber).toEqual([]);
      // The verified check names the newcomer too.
      expect((await checkOf(first, 'verified')).sameIdNumber).toEqual([holder(second, 'pending')]);

      // Not refused: the operator may verify it, and the answer still says whose number it is.
      expect((await approve(second)).sameIdNumber).toEqual([holder(first, 'verified')]);
      const me = await api.http.get('/api/kyc').set(second.auth).expect(200);
      expect(me.body).toMatchObject({ status: 'verified' });
    });

    it('flags two checks under review with one number to each other; a rejected one no longer counts', async () => {
      const [a, b] = [await registerUser(api, 'idpa'), await registerUser(api, 'idpb')];
      const id = freshCnId();
      await Promise.all([submit(a, id), submit(b, id.toLowerCase())]);
      expect((await checkOf(a)).sameIdNumber).toEqual([holder(b, 'pending')]);
      expect((await checkOf(b)).sameIdNumber).toEqual([holder(a, 'pending')]);
      await api.http
        .post(`/api/ops/kyc/${(await checkOf(a)).id}/reject`)
        .set(opsAuth)
        .send({ reason: 'Not the person in the photo' })
        .expect(200);
      expect((await checkOf(b)).sameIdNumber).toEqual([]);
    });

    it('compares other countries’ numbers in upper case, whatever nationality was chosen', async () => {
      const [a, b] = [await registerUser(api, 'idfr'), await registerUser(api, 'idde')];
      await submit(a, 'ab12c3456', 'FR');
      await approve(a);
      await submit(b, 'AB12C3456', 'DE');
      expect((await checkOf(b)).sameIdNumber).toEqual([holder(a, 'verified')]);
    });

    it('tells the operator in `npm run ops -- kyc list` too', async () => {
      const [a, b] = [await registerUser(api, 'idcli1'), await registerUser(api, 'idcli2')];
      const id = freshCnId();
      await submit(a, id);
      await approve(a);
      await submit(b, id);
      const server = api.app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const cli = await run(
          path.join(repoRoot, 'node_modules/.bin/tsx'),
          ['scripts/ops.ts', 'kyc', 'list', '--url', `http://127.0.0.1:${port}`],
          { cwd: repoRoot, env: { ...process.env, OPERATOR_TOKEN } },
        );
        const listed = (JSON.parse(cli.stdout) as { items: OpsKycSubmission[] }).items;
        expect(listed.find((k) => k.userId === b.user.id)?.sameIdNumber).toEqual([
          holder(a, 'verified'),
        ]);
        const check = await checkOf(b);
        expect(cli.stderr).toContain(
          `note: identity check ${check.id} of ${b.account} (user ${b.user.id}): the same ID number is on ${a.account} (user ${a.user.id}, verified)`,
        );
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    });
  },
);
