import { generate } from 'otplib';
import type { OperatorRole } from '@server/platform/http/operator-gate';
import type { HttpApi } from './api';
import { opsAuth } from './wallet';

let names = 0;
/**
 * A new named operator of `role`, created with the service token and signed in with a code:
 * their id and the headers of their session.
 */
export async function operatorSession(api: HttpApi, role: OperatorRole) {
  const created = await api.http
    .post('/api/ops/operators')
    .set(opsAuth)
    .send({ name: `${role}_${Date.now().toString(36)}_${++names}`, role })
    .expect(201);
  const c = created.body as {
    operator: { id: string; name: string };
    password: string;
    totpSecret: string;
  };
  const session = await api.http
    .post('/api/ops/session')
    .send({
      name: c.operator.name,
      password: c.password,
      code: await generate({ secret: c.totpSecret }),
    })
    .expect(200);
  const token = session.body.token as string;
  return {
    id: c.operator.id,
    name: c.operator.name,
    token,
    auth: { Authorization: `Bearer ${token}` },
  };
}
