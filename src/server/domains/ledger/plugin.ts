import { domainPlugin } from '../plugin';
import { registerLedgerRoutes } from '.';
import { registerLedgerSummaryRoutes } from './summary';

export default domainPlugin('ledger', async (app, { database }) => {
  registerLedgerRoutes(app, database.db);
  registerLedgerSummaryRoutes(app, database.db);
});
