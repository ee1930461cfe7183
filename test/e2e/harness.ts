import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';

export const ADMIN_PASSWORD = 'Admin@e2e2026';
/** Node's arguments for the server, exactly as `npm run serve` (and so `npm start`) gives them. */
const SERVE_ARGS = (JSON.parse(readFileSync('package.json', 'utf8')).scripts.serve as string).split(' ').slice(1);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface Portal {
  url: string;
  /** The server's process id (its memory can be read from /proc). */
  pid: number;
  /** The embedded database's folder: another portal started on it finds the same data. */
  dataDir: string;
  output: () => string;
  stop(): Promise<number | null>;
  /** Ends the process at once (SIGKILL), as a crash would; the data folder stays. */
  kill(): Promise<void>;
}

/** The settings that decide what a portal's first start writes to its new database. */
const SEED_SETTINGS = ['ADMIN_PASSWORD', 'SEED_DEMO', 'DEMO_SUBSCRIBERS', 'DEMO_SALES', 'DATABASE_URL'];

/**
 * Starts the portal as a user would (`npm run serve` after a build), on a fresh data folder (or `dataDir`, to
 * start again on the data of a portal that stopped) and a free port.
 *
 * In a test run (`PORTAL_E2E_TEMPLATES`, see e2eSetup.ts) a fresh data folder is a copy of one the portal
 * filled at its first start with the same seed settings, once per run, and `output` begins with what that first
 * start printed (the demo users' password among it): seeding the demo data cost each file most of its start.
 */
export async function startPortal(env: Record<string, string> = {}, dataDir?: string): Promise<Portal> {
  const templates = process.env.PORTAL_E2E_TEMPLATES;
  if (dataDir || !templates) return launchPortal(env, dataDir ?? mkdtempSync(join(tmpdir(), 'portal-e2e-')), '');
  const settings = { ...portalEnv(0, ''), ...env };
  const key = createHash('sha256')
    .update(JSON.stringify(SEED_SETTINGS.map((k) => settings[k] ?? null)))
    .digest('hex')
    .slice(0, 16);
  const template = join(templates, key);
  // Test files run side by side: one fills a template, another wanting it waits for the lock.
  const lock = `${template}.lock`;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    if (!existsSync(join(template, 'output.txt'))) {
      rmSync(template, { recursive: true, force: true }); // what a first start that failed left
      const first = await launchPortal(env, join(template, 'data'), '');
      await first.stopKeepingData();
      writeFileSync(join(template, 'output.txt'), first.output());
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  const copy = mkdtempSync(join(tmpdir(), 'portal-e2e-'));
  cpSync(join(template, 'data'), copy, { recursive: true });
  return launchPortal(env, copy, readFileSync(join(template, 'output.txt'), 'utf8'));
}

/** The server's environment: 2,000 demo subscribers unless a test asks for more, enough to page and search, quick to seed. */
function portalEnv(port: number, dataDir: string): Record<string, string | undefined> {
  return {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_PASSWORD,
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    DEMO_SUBSCRIBERS: '2000',
    // Balances stay at their openings, so a test reads what its own sales and payments did; the dashboard's asks for sales.
    DEMO_SALES: '0',
    // Figures stay still while a test reads them; a test that wants the simulator passes USAGE_SIMULATOR: 'on'.
    USAGE_SIMULATOR: 'off',
    // A loaded test machine is slow: requests wait for the database longer than a server's defaults let them.
    DB_QUEUE_LIMIT: '10000',
    DB_QUEUE_WAIT_MS: '120000',
  };
}

async function launchPortal(env: Record<string, string>, dataDir: string, printedBefore: string): Promise<Portal & { stopKeepingData(): Promise<void> }> {
  const port = await freePort();
  let output = printedBefore;
  const child: ChildProcess = spawn(process.execPath, SERVE_ARGS, {
    env: { ...portalEnv(port, dataDir), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => {
    output += d;
  });
  child.stderr!.on('data', (d) => {
    output += d;
  });
  const url = `http://127.0.0.1:${port}`;
  // PORTAL_START_MS: a first start that seeds a large demo on a loaded machine may need longer.
  const deadline = Date.now() + Number(process.env.PORTAL_START_MS ?? 90000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`portal exited: ${output}`);
    try {
      if ((await fetch(`${url}/portal/version`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`portal did not start: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  async function terminate() {
    const gone = child.exitCode !== null || child.signalCode !== null;
    const exited = gone ? Promise.resolve(child.exitCode) : new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    return exited;
  }
  return {
    url,
    pid: child.pid!,
    dataDir,
    output: () => output,
    async kill() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      const code = await terminate();
      rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
    async stopKeepingData() {
      const code = await terminate();
      if (code !== 0) throw new Error(`portal stopped with ${code}: ${output}`);
    },
  };
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Debian's Chromium with a fresh profile, as the project's browser tests always run it. */
export async function openBrowser(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'portal-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, viewport: { width: 1360, height: 860 } });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Opens the top bar's menu `opener` (a test id: `user-menu`, `settings-open`) and picks `item` (a test id, or the
 * element to click), until `then` succeeds. A click can land as the menu is still moving in or as a dialog that just
 * closed hands the focus back, and the menu closes without the item's effect; a person clicks again, and so does
 * this, up to three times.
 */
export async function pickFromMenu(page: Page, opener: string, item: string | Locator, then: () => Promise<unknown>) {
  const target = typeof item === 'string' ? page.getByTestId(item) : item;
  for (let attempt = 1; ; attempt++) {
    if (!(await target.isVisible())) await page.getByTestId(opener).click();
    await target.click();
    try {
      await then();
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/**
 * Opens a grid cell's editor by double-clicking it, as a person does, and answers its `control` (`input`, `select`).
 * A double click can land as the grid redraws the row (a row just added is scrolled to and drawn again); a person
 * double-clicks again, and so does this, up to three times.
 */
export async function editCell(cell: Locator, control: 'input' | 'select'): Promise<Locator> {
  const editor = cell.locator(control);
  for (let attempt = 1; ; attempt++) {
    await cell.dblclick();
    try {
      await editor.waitFor({ timeout: 5_000 });
      return editor;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/** Turns dark mode on or off from the user menu, as a user does, and waits until the page follows. */
export async function setDarkMode(page: Page, on: boolean) {
  const dark = () => page.evaluate(() => document.body.classList.contains('bp6-dark'));
  if ((await dark()) === on) return;
  const toggle = page.getByTestId('dark-mode-switch');
  // The switch's label takes the click, as a person's would; Playwright waits for the menu to stop moving first.
  await pickFromMenu(page, 'user-menu', page.locator('label', { has: toggle }), () =>
    page.waitForFunction((wanted) => document.body.classList.contains('bp6-dark') === wanted, on, { timeout: 10_000 }),
  );
  // The menu may have closed as the theme changed; close it if it is still open.
  if (await toggle.isVisible()) await page.keyboard.press('Escape');
  await toggle.waitFor({ state: 'hidden' });
}

/**
 * Screenshots of the page as it is, light, dark and in Hebrew (right to left): `<path>-light.png`, `-dark.png`,
 * `-he.png`. The page is left light and in English.
 */
export async function screenshotThemes(page: Page, path: string) {
  await page.screenshot({ path: `${path}-light.png`, fullPage: true });
  await setDarkMode(page, true);
  await page.screenshot({ path: `${path}-dark.png`, fullPage: true });
  await setDarkMode(page, false);
  await page.getByTestId('language-select').selectOption('he');
  await page.waitForFunction(() => document.documentElement.dir === 'rtl');
  await page.screenshot({ path: `${path}-he.png`, fullPage: true });
  await page.getByTestId('language-select').selectOption('en');
  await page.waitForFunction(() => document.documentElement.dir === 'ltr');
}

/** The password of a demo user, which the portal prints at its first start. */
export function demoPassword(portal: Portal, user = 'northwind'): string {
  const printed = new RegExp(`Demo user "${user}".*password: (\\S+)`).exec(portal.output());
  if (!printed) throw new Error(`the portal printed no password for ${user}`);
  return printed[1];
}

/** Signs in through the login form, as a person does, and waits for the dashboard. */
export async function signIn(page: Page, portal: Portal, userName: string, password: string, remember = false) {
  await page.goto(`${portal.url}/#/login`);
  await page.locator('#login-userName').fill(userName);
  await page.locator('#login-password').fill(password);
  if (remember) await page.getByLabel('Remember me').check({ force: true });
  await page.getByTestId('sign-in-submit').click();
  await page.getByTestId('dashboard-welcome').waitFor();
}

/** A token for `userName`, signed in over HTTP as an API client would (for calls made outside the browser). */
export async function apiToken(portal: Pick<Portal, 'url'>, userName: string, password: string): Promise<string> {
  const res = await fetch(`${portal.url}/portal/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userName, password }),
  });
  if (!res.ok) throw new Error(`sign-in of ${userName} failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { jwt: string }).jwt;
}

/** Calls the API with the browser's own session, as the page would; answers the parsed body (null when empty). */
export function callApi<T>(page: Page, method: string, url: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const token = localStorage.getItem('portal.token') ?? sessionStorage.getItem('portal.token');
      const res = await fetch(url, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return text ? JSON.parse(text) : null;
    },
    { method, url, body },
  );
}

/** Where browser tests put their screenshots. */
export const SHOTS = process.env.SHOTS_DIR ?? 'test-results';

export interface BrowserSession {
  portal: Portal;
  browser: Browser;
  page: Page;
  /** Errors the page threw, for a test to assert there were none. */
  errors: string[];
}

/**
 * A portal (started with `env`) and a browser for the tests of one file: both start before its first test and stop
 * after its last; the page's own errors are collected. Read the fields inside tests and hooks, once they have started.
 */
export function browserSession(env: Record<string, string> = {}): BrowserSession {
  const session = { errors: [] as string[] } as BrowserSession;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    session.portal = await startPortal(env);
    session.browser = await openBrowser();
    session.page = session.browser.page;
    session.page.on('pageerror', (e) => session.errors.push(String(e)));
  });
  afterAll(async () => {
    await session.browser?.close();
    await session.portal?.stop();
  });
  return session;
}
