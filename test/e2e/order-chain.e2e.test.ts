import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, apiToken, browserSession, callApi, demoPassword, screenshotThemes, SHOTS, signIn } from './harness';

/** Waits for a visible state that a server's work decides: on a loaded machine that takes longer than a second. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000 });

/** An amount as the screens show it in US dollars ("$1,234.50", "-$3.00"), as a number. */
const dollars = (text: string) => Number(text.replace(/[^0-9.-]/g, ''));

/**
 * The whole SIM supply chain through the screens, as its users do it: a reseller orders cards in the wizard, the
 * credit is held, the order is reviewed, allocated, placed with the vendor (the local simulator) and delivered by
 * the administrator, who alone downloads the keys; the reseller then finds the cards in its inventory, assigns a
 * range of them to an account and finds the new subscribers in the subscriber list.
 */
describe('the SIM order chain in the browser', () => {
  // Few subscribers: the chain makes its own, and the portal starts sooner.
  const session = browserSession({ DEMO_SUBSCRIBERS: '100', CORE_NETWORK_FAILURE_RATE: '0' });
  const BATCH = 'Chain batch 2026';
  const AMOUNT = 500;
  const ASSIGNED = 25;

  const switchUser = async (page: Page, user: string, password: string) => {
    await page.getByTestId('sign-out').click();
    await page.locator('#login-userName').waitFor();
    await signIn(page, session.portal, user, password);
  };
  const status = (page: Page) => page.getByTestId('order-status').innerText();

  it('runs from the wizard to subscribers of an account', async () => {
    const { page, portal, errors } = session;
    const northwindPassword = demoPassword(portal);

    // Setup without a screen: Northwind Mobile asks for four eyes on its orders' financial approval.
    const admin = await apiToken(portal, 'admin', ADMIN_PASSWORD);
    const headers = { authorization: `Bearer ${admin}`, 'content-type': 'application/json' };
    const resellers = (await (await fetch(`${portal.url}/portal/reseller-info/list`, { headers })).json()) as { id: number; name: string }[];
    const northwind = resellers.find((r) => r.name === 'Northwind Mobile')!.id;
    const fourEyes = await fetch(`${portal.url}/portal/sim-order-settings/${northwind}`, { method: 'PUT', headers, body: JSON.stringify({ fourEyes: true }) });
    expect(fourEyes.status).toBe(200);

    // The administrator gives Northwind Mobile a credit limit on its page.
    await signIn(page, portal, 'admin', ADMIN_PASSWORD);
    await page.goto(`${portal.url}/#/resellers`);
    await page
      .getByTestId('grid-reseller')
      .locator('[role="gridcell"][col-id="name"]')
      .filter({ hasText: /^Northwind Mobile$/ })
      .click();
    await page.getByTestId('reseller-figures').waitFor();
    await page.locator('#reseller-credit-limit').fill('20,000');
    await page.getByTestId('reseller-credit-limit-save').click();
    await poll(() => page.getByTestId('figure-creditLimit').innerText()).toBe('$20,000.00');

    // The reseller's available credit before it orders.
    await switchUser(page, 'northwind', northwindPassword);
    const available = page.getByTestId('balance-widget-available');
    await available.waitFor();
    const before = dollars(await available.innerText());
    expect(await page.getByTestId('balance-widget-held').count()).toBe(0);

    // The wizard: physical cards, a sponsor, an approved roaming profile, a provider profile, amount, delivery.
    await page.goto(`${portal.url}/#/orders`);
    await page.getByTestId('order-wizard').waitFor();
    await page.getByTestId('wizard-next').click(); // who: Northwind Mobile itself
    await page.getByTestId('sim-type-physical').check({ force: true });
    await page.getByTestId('wizard-next').click();
    await poll(() => page.getByTestId('order-sponsor-0').locator('option').count()).toBeGreaterThan(1);
    await page.getByTestId('order-sponsor-0').selectOption({ label: 'Orbit Home NL (2040412)' });
    await page.getByTestId('wizard-next').click();
    // Only the approved single-slot profile of Northwind is offered: not its pending one, not Blue Sky's.
    const roaming = page.getByRole('combobox', { name: 'Roaming profile' });
    await poll(() => roaming.locator('option').allInnerTexts()).toEqual(['None', 'Europe IoT']);
    await roaming.selectOption({ label: 'Europe IoT' });
    await page.getByTestId('wizard-next').click(); // custom IMSI range: none
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('order-provider').selectOption({ label: 'Orbit Cards' });
    await poll(() => page.getByTestId('order-profile').locator('option').count()).toBeGreaterThan(1);
    await page.getByTestId('order-profile').selectOption({ index: 1 });
    const profileName = (await page.getByTestId('order-profile').locator('option:checked').innerText()).replace(/ \(.*\)$/, '');
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('order-amount').fill(String(AMOUNT));
    await page.getByTestId('order-batch').fill(BATCH);
    await page.getByTestId('wizard-next').click();
    await page.getByTestId('order-email').fill('ops@northwind.example');
    await page.getByTestId('wizard-next').click(); // artwork: none
    await page.getByTestId('wizard-next').click();
    // The summary is priced by the server: 500 plastic cards at the MOQ, 1.80 each, no fee.
    await poll(() => page.getByTestId('order-total').innerText()).toBe('$900.00');
    // It repeats every choice: the roaming profile, the provider profile, the batch name and the delivery.
    const summary = async (id: string) => page.getByTestId(`summary-${id}`).innerText();
    expect(await summary('roaming')).toBe('Europe IoT');
    expect(await summary('provider')).toBe('Orbit Cards');
    expect(await summary('profile')).toBe(profileName);
    expect(await summary('batch')).toBe(BATCH);
    expect(await summary('delivery')).toBe('ops@northwind.example');
    expect(await summary('amount')).toBe('500 · USD');
    await page.screenshot({ path: `${SHOTS}/order-chain-summary-light.png`, fullPage: true });
    await page.getByTestId('wizard-submit').click();
    await page.getByTestId('order-detail').waitFor();
    await poll(() => status(page)).toBe('Submitted');
    const uuid = /orders\/([0-9a-f-]{36})/.exec(page.url())![1];
    expect(await page.getByTestId('order-reservation').innerText()).toBe('$900.00 · held');
    // Four eyes: the submitter is not offered the financial approval; the keys are never the reseller's.
    expect(await page.getByTestId('order-approve-financial').count()).toBe(0);
    expect(await page.getByTestId('order-keys').count()).toBe(0);

    // The hold shows in the reseller's available credit.
    await page.goto(`${portal.url}/#/`);
    await poll(() => page.getByTestId('balance-widget-held').innerText()).toBe('$900.00');
    expect(dollars(await available.innerText())).toBeCloseTo(before - 900, 2);
    await page.getByTestId('balance-widget').screenshot({ path: `${SHOTS}/order-chain-hold-light.png` });

    // The administrator finds the order in the list and carries it through on its page.
    await switchUser(page, 'admin', ADMIN_PASSWORD);
    await page.goto(`${portal.url}/#/orders?tab=list`);
    const row = page.getByTestId('grid-simOrder').getByText(BATCH);
    await row.waitFor();
    await row.click();
    await page.getByTestId('order-detail').waitFor();
    expect(page.url()).toContain(uuid);
    await page.getByTestId('order-approve-financial').click();
    await poll(() => status(page)).toBe('Financially approved');
    await page.getByTestId('order-approve-technical').click();
    await poll(() => status(page)).toBe('Technically approved');
    // Allocation: slot 1 keeps the ordered sponsor.
    const allocation = page.getByTestId('order-allocation');
    expect(await allocation.locator('#alloc-0 option:checked').innerText()).toBe('Orbit Home NL');
    await page.getByTestId('order-allocate').click();
    await poll(() => status(page)).toBe('Resources allocated');
    const iccidRange = (await page.getByTestId('order-iccid-range').innerText()).split(/\s*[–-]\s*/);
    expect(iccidRange).toHaveLength(2);
    await page.getByTestId('order-place').click();
    await poll(() => status(page)).toBe('Placed');
    await page.screenshot({ path: `${SHOTS}/order-chain-placed-light.png`, fullPage: true });

    // The keys: one line per card after the header, each starting with the card's ICCID, in the allocated range.
    const download = page.waitForEvent('download');
    await page.getByTestId('order-keys').click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('keys-Chain_batch_2026.csv');
    const lines = readFileSync((await file.path())!, 'utf8')
      .trimEnd()
      .split('\n');
    expect(lines[0]).toBe('ICCID,IMSI1,MSISDN,KI,OPC');
    const iccids = lines.slice(1).map((l) => l.split(',')[0]);
    expect(iccids).toHaveLength(AMOUNT);
    expect(new Set(iccids).size).toBe(AMOUNT);
    expect(iccids.every((i) => /^\d{19,20}$/.test(i))).toBe(true);
    expect([iccids[0], iccids[AMOUNT - 1]]).toEqual(iccidRange);
    expect(lines.slice(1).every((l) => /^\d+,\d{15},\d*,[0-9A-F]{32},[0-9A-F]{32}$/i.test(l))).toBe(true);
    await poll(() => page.getByTestId('order-timeline').innerText()).toContain('Keys downloaded once.');

    await page.getByTestId('order-deliver').click();
    await poll(() => status(page)).toBe('Delivered');
    expect(await page.getByTestId('order-reservation').innerText()).toBe('$900.00 · charged');

    // The timeline names each step and who took it.
    const steps = await page.getByTestId('order-timeline').locator('li').allInnerTexts();
    const who = steps.map((s) =>
      /(Created|Submitted|Financial approval|Technical approval|Resources allocated|Placed with the vendor|Keys downloaded|Delivered)\b[\s\S]*· (\S+)\s*$/
        .exec(s)
        ?.slice(1),
    );
    expect(who).toEqual([
      ['Created', 'northwind'],
      ['Submitted', 'northwind'],
      ['Financial approval', 'admin'],
      ['Technical approval', 'admin'],
      ['Resources allocated', 'admin'],
      ['Placed with the vendor', 'admin'],
      ['Keys downloaded', 'admin'],
      ['Delivered', 'admin'],
    ]);
    // The page afresh, without the actions' notices over it, light, dark and in Hebrew.
    await page.reload();
    await poll(() => status(page)).toBe('Delivered');
    await screenshotThemes(page, `${SHOTS}/order-chain-detail`);
    // The fee's label keeps its number isolated, so it reads in order in Hebrew too.
    expect(await page.getByTestId('order-fee-below-moq').locator('bdi').innerText()).toBe('500');

    // The reseller: no keys for it, on the page or from the server.
    await switchUser(page, 'northwind', northwindPassword);
    await page.goto(`${portal.url}/#/orders/${uuid}`);
    await poll(() => status(page)).toBe('Delivered');
    expect(await page.getByTestId('order-keys').count()).toBe(0);
    const refused = await page.evaluate(async (url) => {
      const token = localStorage.getItem('portal.token') ?? sessionStorage.getItem('portal.token');
      return (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).status;
    }, `/portal/sim-orders/${uuid}/admin/keys`);
    expect(refused).toBe(403);

    // The delivered cards are in its inventory, all in stock, over the keys' ICCIDs.
    await page.goto(`${portal.url}/#/inventory`);
    const range = page.getByTestId(`range-${BATCH}`);
    await range.waitFor();
    const counts = async () => Promise.all(['range-allocated', 'range-available', 'range-total'].map(async (id) => range.getByTestId(id).innerText()));
    expect(await counts()).toEqual(['0', '500', '500']);
    expect(await range.locator('td.portal-mono').allInnerTexts()).toEqual(iccidRange);
    await page.screenshot({ path: `${SHOTS}/order-chain-inventory-light.png`, fullPage: true });

    // The subscribers Alpine Sensors has before the cards are assigned to it.
    const accounts = await callApi<{ accountId: number; name: string }[]>(page, 'GET', '/portal/accounts/list');
    const alpine = accounts.find((a) => a.name === 'Alpine Sensors')!;
    const total = page.getByTestId('list-total');
    const countOf = async () => Number((await total.innerText()).replace(/\D/g, ''));
    await page.goto(`${portal.url}/#/subscribers?searchBy=accountId&searchKey=${alpine.accountId}&page=1`);
    await page.getByTestId('grid-subscriber').waitFor();
    await total.waitFor();
    const subscribersBefore = await countOf();

    // The reseller assigns the first 25 cards of the range to Alpine Sensors.
    await page.goto(`${portal.url}/#/assign-subscribers?tab=inventory`);
    const form = page.getByTestId('assign-inventory');
    await form.getByTestId('inventory-account').selectOption({ label: 'Alpine Sensors' });
    await form.getByTestId('inventory-range').selectOption({ label: `${BATCH}: 500 of 500 available` });
    expect(await form.getByTestId('inventory-iccidStart').inputValue()).toBe(iccids[0]);
    await form.getByTestId('inventory-quantity').fill(String(ASSIGNED));
    expect(await form.getByTestId('inventory-iccidEnd').inputValue()).toBe(iccids[ASSIGNED - 1]);
    await form.getByTestId('inventory-submit').click();
    await poll(() => page.getByTestId('inventory-done').innerText()).toContain(`${ASSIGNED} SIM cards were assigned to the account.`);
    await page.screenshot({ path: `${SHOTS}/order-chain-assign-light.png`, fullPage: true });

    // The new subscribers, from the form's link: the account's list, with 25 more, the cards' ICCIDs among them.
    await page.getByTestId('inventory-show').click();
    await poll(() => page.url()).toContain(`searchBy=accountId&searchKey=${alpine.accountId}`);
    await poll(countOf).toBe(subscribersBefore + ASSIGNED);
    const grid = page.getByTestId('grid-subscriber');
    await poll(async () => new Set(await grid.locator('[role="gridcell"][col-id="accountName"]').allInnerTexts())).toEqual(new Set(['Alpine Sensors']));
    await page.screenshot({ path: `${SHOTS}/order-chain-subscribers-light.png`, fullPage: true });
    // Each assigned card, found by its ICCID, belongs to Alpine Sensors, and its subscriber has the IMSI the
    // allocation gave the card, as the keys file lists it.
    const imsiOf = new Map(lines.slice(1).map((l) => [l.split(',')[0], l.split(',')[1]]));
    for (const iccid of [iccids[0], iccids[ASSIGNED - 1]]) {
      await page.goto(`${portal.url}/#/subscribers?searchBy=iccid&searchKey=${iccid}&page=1`);
      await poll(() => grid.locator('[role="gridcell"][col-id="accountName"]').allInnerTexts()).toEqual(['Alpine Sensors']);
      await poll(() => grid.locator('[role="gridcell"][col-id="imsi"]').allInnerTexts()).toEqual([imsiOf.get(iccid)]);
    }

    // The inventory counts follow.
    await page.goto(`${portal.url}/#/inventory`);
    await range.waitFor();
    await poll(counts).toEqual(['25', '475', '500']);
    expect(errors).toEqual([]);
  });
});
