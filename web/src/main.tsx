import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { restoreSession } from '#web/api.ts';
import { queryClient } from '#web/queries.ts';
import { hadSession } from '#web/session.ts';
import { App } from '#web/shell/app.tsx';
import { startLoading } from '#web/shell/routes.tsx';
import '#web/styles.css';

// A new tab, an e-mailed link or a browser restart opens signed in when the refresh cookie is good.
void restoreSession();
startLoading(location.pathname, !hadSession());

const root = document.getElementById('root');
// The first render as a transition: React renders it in slices that yield to the browser every few
// milliseconds instead of one long task, so a phone stays responsive while the app starts (the
// long tasks were most of Lighthouse's Total Blocking Time).
if (root)
  startTransition(() =>
    createRoot(root).render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <App />
        </QueryClientProvider>
      </StrictMode>,
    ),
  );
