import { domainPlugin } from '../plugin';
import { registerLedgerRoutes } from '.';

export default domainPlugin('ledger', async (app, { database }) => registerLedgerRoutes(app, database.db));
