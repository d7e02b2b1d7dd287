import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { restoreSession } from '#web/api.ts';
import { queryClient } from '#web/queries.ts';
import { App } from '#web/shell/app.tsx';
import '#web/styles.css';

// A new tab, an e-mailed link or a browser restart opens signed in when the refresh cookie is good.
void restoreSession();

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <App />
      </QueryClientProvider>
    </StrictMode>,
  );
