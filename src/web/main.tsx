import '@blueprintjs/core/lib/css/blueprint.css';
import './app/iconFont.css';
import './app/app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { persistStore } from 'redux-persist';
import { PersistGate } from 'redux-persist/integration/react';
import { App } from './app/App';
import { preloadSignedIn } from './app/preload';
import { makeStore } from './app/store';

const store = makeStore();
const persistor = persistStore(store);
preloadSignedIn(store, location.hash);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <Provider store={store}>
      <PersistGate loading={null} persistor={persistor}>
        <App />
      </PersistGate>
    </Provider>
  </StrictMode>,
);
