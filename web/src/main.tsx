import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '#web/shell/app.tsx';
import '#web/styles.css';

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
