import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, testApp } from './helpers';

type Ctx = Awaited<ReturnType<typeof testApp>>;

describe.each(engines)('users and roles on %s', (engine) => {
  let ctx: Ctx;
  let admin: ReturnType<Ctx['client']>;
  let northwind: ReturnType<Ctx['client']>;
  let northwindRoleId: number;

  beforeAll(async () => {
    ctx = await testApp(engine);
    admin = await ctx.as('admin');
    northwind = await ctx.as('northwind');
    northwindRoleId = (await northwind.get('/portal/roles')).json().find((r: { name: string }) => r.name === 'Reseller manager').id;
  });
  afterAll(async () => ctx?.close());

  describe('users', () => {
    it('creates a user who can sign in, and never reads back a password', async () => {
      const created = await northwind.post('/portal/user', {
        username: 'nw.ops',
        email: 'ops@northwind.example',
        password: 'Ops@2026pass',
        firstName: 'Olga',
        roleId: northwindRoleId,
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json()).toMatchObject({ username: 'nw.ops', resellerName: 'Northwind Mobile', roleName: 'Reseller manager' });
      expect(created.body).not.toMatch(/password/i);
      const page = (await northwind.post('/portal/user/search', { searchBy: 'multi', searchKey: 'ops@northwind' })).json();
      expect(page.items.map((u: { username: string }) => u.username)).toEqual(['nw.ops']);
      expect(JSON.stringify(page)).not.toMatch(/password/i);
      expect(await ctx.login('nw.ops', 'Ops@2026pass')).toBeTruthy();
    });

    it('keeps the password on an update without one, and changes it with one', async () => {
      const user = (
        await northwind.post('/portal/user', { username: 'nw.keep', email: 'keep@northwind.example', password: 'Keep@2026pass', roleId: northwindRoleId })
      ).json();
      expect((await northwind.put('/portal/user', { ...user, lastName: 'Kept' })).statusCode).toBe(200);
      expect(await ctx.login('nw.keep', 'Keep@2026pass')).toBeTruthy();
      expect(
        (
          await northwind.put('/portal/user', {
            userId: user.userId,
            username: 'nw.keep',
            email: user.email,
            roleId: northwindRoleId,
            password: 'Changed@2026',
          })
        ).statusCode,
      ).toBe(200);
      await expect(ctx.login('nw.keep', 'Keep@2026pass')).rejects.toThrow();
      expect(await ctx.login('nw.keep', 'Changed@2026')).toBeTruthy();
    });

    it.each([
      [{ username: 'nw.a', email: 'a@x.example', roleId: 0 }, 'password', 'Password is required'],
      [
        { username: 'nw.b', email: 'b@x.example', password: 'short', roleId: 0 },
        'password',
        'Password must have at least 8 characters with a lowercase and an uppercase letter, a digit and one of @#$!%^&+=, and no spaces',
      ],
      [
        { username: 'nw.c', email: 'c@x.example', password: 'No Space@1a', roleId: 0 },
        'password',
        'Password must have at least 8 characters with a lowercase and an uppercase letter, a digit and one of @#$!%^&+=, and no spaces',
      ],
      [{ username: 'nw.d', password: 'Good@2026pass', roleId: 0 }, 'email', 'E-mail is required'],
      [{ email: 'e@x.example', password: 'Good@2026pass', roleId: 0 }, 'username', 'Username is required'],
      [{ username: 'nw.f', email: 'f@x.example', password: 'Good@2026pass' }, 'roleId', 'Please choose'],
    ])('refuses %j on %s', async (body, field, message) => {
      const res = await northwind.post('/portal/user', { ...body, roleId: 'roleId' in body ? northwindRoleId : undefined });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toContainEqual(expect.objectContaining({ field, message }));
    });

    it('refuses an e-mail already in use, ignoring case', async () => {
      const res = await northwind.post('/portal/user', {
        username: 'nw.dup',
        email: 'BLUESKY@demo.example',
        password: 'Good@2026pass',
        roleId: northwindRoleId,
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().fields).toEqual([expect.objectContaining({ field: 'email', message: 'email already in use' })]);
    });

    it('refuses a role the caller cannot see, or one granting more than the caller holds', async () => {
      const adminRole = (await admin.get('/portal/roles')).json().find((r: { name: string }) => r.name === 'Administrator');
      const foreign = await northwind.post('/portal/user', { username: 'nw.esc', email: 'esc@x.example', password: 'Good@2026pass', roleId: adminRole.id });
      expect(foreign.json().fields[0]).toMatchObject({ field: 'roleId', rule: 'reference' });
      // The admin gives Northwind a role with Roles, which Northwind's managers do not hold.
      const strong = (await admin.post('/portal/roles', { name: 'Strong', resellerId: 1, privileges: [{ privilege: 'Roles', subPrivileges: [] }] })).json();
      const escalate = await northwind.post('/portal/user', { username: 'nw.esc', email: 'esc@x.example', password: 'Good@2026pass', roleId: strong.id });
      expect(escalate.statusCode).toBe(400);
      expect(escalate.json().fields[0]).toMatchObject({ field: 'roleId', rule: 'privileges' });
    });

    it('keeps an account user to the users of its account', async () => {
      const harbor = await ctx.as('harbor');
      const users = (await harbor.post('/portal/user/paged', {})).statusCode;
      expect(users).toBe(403); // the demo account role has no Users privilege
      const nwUsers = (await northwind.post('/portal/user/paged', { page: { page: 0, size: 100 } })).json().items.map((u: { username: string }) => u.username);
      expect(nwUsers).toEqual(expect.arrayContaining(['northwind', 'northwind-iot', 'harbor']));
      expect(nwUsers).not.toContain('bluesky');
      expect(nwUsers).not.toContain('admin');
    });

    it('does not let users delete themselves, and deletes others', async () => {
      const me = (await northwind.get('/portal/user')).json();
      const self = await northwind.delete(`/portal/user/${me.id}`);
      expect(self.statusCode).toBe(400);
      expect(self.json().fields[0].message).toBe('You cannot delete your own user');
      const victim = (
        await northwind.post('/portal/user', { username: 'nw.gone', email: 'gone@x.example', password: 'Good@2026pass', roleId: northwindRoleId })
      ).json();
      expect((await (await ctx.as('bluesky')).delete(`/portal/user/${victim.userId}`)).statusCode).toBe(404);
      expect((await northwind.delete(`/portal/user/${victim.userId}`)).statusCode).toBe(204);
      expect((await northwind.get(`/portal/user/${victim.userId}`)).statusCode).toBe(404);
    });
  });

  describe('roles', () => {
    it("lists the roles of the caller's subtree only", async () => {
      const names = (await northwind.get('/portal/roles')).json().map((r: { name: string }) => r.name);
      expect(names).toContain('Reseller manager');
      expect(names).not.toContain('Administrator');
    });

    it('stores only the privileges the editor holds', async () => {
      const iot = await ctx.as('northwind-iot');
      const res = await iot.post('/portal/roles', {
        name: 'Try everything',
        privileges: [
          { privilege: 'Accounts', subPrivileges: [] },
          { privilege: 'Roles', subPrivileges: [] },
          { privilege: 'Nonsense', subPrivileges: [] },
        ],
      });
      // northwind-iot's role lacks Roles: it cannot even reach the call.
      expect(res.statusCode).toBe(403);
      const bluesky = await ctx.as('bluesky');
      const created = await bluesky.post('/portal/roles', {
        name: 'Support',
        privileges: [
          { privilege: 'Accounts', subPrivileges: [] },
          { privilege: 'Search', subPrivileges: ['Accounts', 'Bogus'] },
          { privilege: 'Nonsense', subPrivileges: [] },
        ],
      });
      expect(created.statusCode).toBe(201);
      expect(created.json().privileges).toEqual([
        { privilege: 'Accounts', subPrivileges: [] },
        { privilege: 'Search', subPrivileges: ['Accounts'] },
      ]);
    });

    it('takes a privilege sent without its sub-privileges as granting none of them', async () => {
      const bluesky = await ctx.as('bluesky');
      for (const privileges of [[{ privilege: 'Search' }], [{ privilege: 'Search', subPrivileges: null }]]) {
        const created = await bluesky.post('/portal/roles', {
          name: `Searchers ${privileges.length}${'subPrivileges' in privileges[0] ? ' null' : ''}`,
          privileges,
        });
        expect(created.statusCode, created.body).toBeLessThan(500);
        if (created.statusCode === 201) expect(created.json().privileges).toEqual([{ privilege: 'Search', subPrivileges: [] }]);
      }
      const plain = await bluesky.post('/portal/roles', { name: 'Searchers plain', privileges: [{ privilege: 'Search' }] });
      expect(plain.statusCode, plain.body).toBe(201);
      const updated = await bluesky.put(`/portal/roles/${plain.json().id}`, {
        name: 'Searchers plain',
        privileges: [{ privilege: 'Search' }, { privilege: 'Accounts' }],
      });
      expect(updated.statusCode, updated.body).toBe(200);
      expect(updated.json().privileges).toEqual([
        { privilege: 'Accounts', subPrivileges: [] },
        { privilege: 'Search', subPrivileges: [] },
      ]);
    });

    it('keeps role names unique per reseller', async () => {
      const bluesky = await ctx.as('bluesky');
      const dup = await bluesky.post('/portal/roles', { name: 'SUPPORT', privileges: [] });
      expect(dup.statusCode).toBe(409);
      expect(dup.json().fields[0]).toMatchObject({ field: 'name', message: 'name in use' });
      expect((await admin.post('/portal/roles', { name: 'Support', resellerId: 1, privileges: [] })).statusCode).toBe(201);
    });

    it('refuses to delete a role in use, and deletes an unused one', async () => {
      const bluesky = await ctx.as('bluesky');
      const inUse = (await bluesky.get('/portal/roles')).json().find((r: { name: string }) => r.name === 'Reseller manager');
      const res = await bluesky.delete(`/portal/roles/${inUse.id}`);
      expect(res.statusCode).toBe(409);
      expect(res.json().fields[0].message).toBe('role in use cannot be deleted');
      expect((await bluesky.get(`/portal/roles/${inUse.id}`)).statusCode).toBe(200);
      expect((await northwind.delete(`/portal/roles/${northwindRoleId}`)).statusCode).toBe(403);
      const unused = (await admin.post('/portal/roles', { name: 'Temporary', resellerId: 1, privileges: [] })).json();
      expect((await admin.delete(`/portal/roles/${unused.id}`)).statusCode).toBe(204);
    });

    it('updates a role by the id in the path', async () => {
      const bluesky = await ctx.as('bluesky');
      const role = (await bluesky.post('/portal/roles', { name: 'Renamable', privileges: [] })).json();
      const res = await bluesky.put(`/portal/roles/${role.id}`, { name: 'Renamed', privileges: [{ privilege: 'Dashboard', subPrivileges: [] }] });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: role.id, name: 'Renamed', privileges: [{ privilege: 'Dashboard', subPrivileges: [] }] });
    });
  });
});
