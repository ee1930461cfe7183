import { HashRouter } from 'react-router-dom';
import { AppFrame } from './AppFrame';
import { AppRoutes } from './AppRoutes';

/** The app below the store: hash routing, as the portal's addresses are `#/accounts` and the like. */
export function App() {
  return (
    <AppFrame>
      <HashRouter>
        <AppRoutes />
      </HashRouter>
    </AppFrame>
  );
}
