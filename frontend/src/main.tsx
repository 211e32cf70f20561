import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider, type FetchQueryOptions } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router';
import '@xyflow/react/dist/style.css';
import './shell/app.css';
import { browserLocale, switchLocale } from './i18n/i18n';
import { App } from './shell/App';
import { flowQuery } from './api/flows';
import { meQuery } from './api/me';

// Server state is refetched on focus but not retried on 4xx: a refusal is an answer, not a glitch.
const queries = new QueryClient({
  defaultOptions: { queries: { retry: (count, error) => count < 2 && !('status' in error) } },
});

// A data router (not <BrowserRouter>): the editor's leave guard needs react-router's useBlocker, which only a
// data router has, to ask before the browser's Back button leaves unsaved changes. The pages are still
// the <Routes> of App.tsx, under one catch-all route.
const router = createBrowserRouter([{ path: '*', element: <App /> }]);

// Asked for now, beside the catalog, not once it has loaded and the page has drawn (a failure is forgotten:
// the page asks again when it needs the answer, and a 401 then sends it to the login page).
function prefetch<T, K extends readonly unknown[]>(query: FetchQueryOptions<T, Error, T, K>) {
  void queries.prefetchQuery(query).then(() => {
    if (queries.getQueryState(query.queryKey)?.status === 'error')
      queries.removeQueries({ queryKey: query.queryKey });
  });
}

// Who is logged in (shell/Layout.tsx), on every page but the login.
if (window.location.pathname !== '/login') prefetch(meQuery);
// Opened at a flow's address: the flow and the editor's code load now too.
const opened = /^\/flows\/(\d+)$/.exec(window.location.pathname);
if (opened) {
  prefetch(flowQuery(Number(opened[1])));
  void import('./flows/EditorPage');
}

// The browser's language until the user's own is known (the login page has no user yet); a catalog that
// does not load leaves the keys visible rather than a blank page.
const root = document.getElementById('root');
if (root) {
  await switchLocale(browserLocale()).catch(() => undefined);
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queries}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
}
