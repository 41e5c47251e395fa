import { generate } from 'otplib';
import type { HttpApi, registerUser } from './api';
import { TRADE_PASSWORD } from './wallet';

/** The code an authenticator app shows `steps` time steps (30 s) from now. */
export const codeAt = (secret: string, steps = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/** Turns two-factor on for `u` through the security page's endpoints: its secret and ten codes. */
export async function enrolTwoFactor(api: HttpApi, u: Awaited<ReturnType<typeof registerUser>>) {
  const enrol = await api.http
    .post('/api/security/two-factor/enrol')
    .set(u.auth)
    .send({ tradePassword: TRADE_PASSWORD })
    .expect(200);
  const { secret } = enrol.body as { secret: string };
  const confirm = await api.http
    .post('/api/security/two-factor/confirm')
    .set(u.auth)
    .send({ code: await codeAt(secret) })
    .expect(200);
  return { secret, codes: (confirm.body as { codes: string[] }).codes };
}
