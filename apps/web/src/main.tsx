import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n } from './lib/i18n.ts';
import './app/global.css';
import { App } from './app/App.tsx';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The router starts loading the first screen meanwhile (app/router.tsx creates it on import).
void initI18n().then(() => {
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
