import type { testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Client = ReturnType<Ctx['client']>;

/** What a token still opens: the caller's profile and a renewal (both 200 while the session stands, 401 once ended). */
export async function sessionAnswers(client: Client) {
  return { profile: (await client.get('/portal/user')).statusCode, renew: (await client.get('/portal/auth/renew')).statusCode };
}

export const STANDS = { profile: 200, renew: 200 };
export const ENDED = { profile: 401, renew: 401 };

/** Changes the caller's own password: the answer's new token carries the session that changed it on. */
export async function changeOwnPassword(client: Client, currentPassword: string, newPassword: string): Promise<string> {
  const res = await client.put('/portal/user/password', { currentPassword, newPassword });
  if (res.statusCode !== 200) throw new Error(`password change failed: ${res.body}`);
  const { jwt } = res.json() as { jwt?: string };
  if (!jwt) throw new Error('the password change answered no token for the session that made it');
  return jwt;
}
