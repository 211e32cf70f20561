// The page routes. The server answers each of these paths with index.html (backend/api/static.py
// PAGE_PREFIXES): a new top-level route must be added there too.
import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Login } from './Login';
import { Layout } from './Layout';
import { Placeholder } from './Placeholder';
import { FlowsPage } from '../flows/FlowsPage';
import { RunsPage } from '../runs/RunsPage';
import { InboxPage } from '../inbox/InboxPage';
import { ApprovalPage } from '../inbox/ApprovalPage';
import { AuditPage } from '../audit/AuditPage';
import { PeoplePage } from '../people/PeoplePage';

// The canvas pages are chunks of their own, loaded when first opened: React Flow, rjsf and
// dagre are most of the bundle, and the flows list, the inbox and the login page need none of them.
const EditorPage = lazy(() => import('../flows/EditorPage').then((m) => ({ default: m.EditorPage })));
const RunPage = lazy(() => import('../runs/RunPage').then((m) => ({ default: m.RunPage })));

function Loaded({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return <Suspense fallback={<p aria-busy="true">{t('ui_loading')}</p>}>{children}</Suspense>;
}

export function App() {
  return (
    <Routes>
      <Route path="/login" element={<Login />} />
      <Route element={<Layout />}>
        <Route index element={<Navigate to="/flows" replace />} />
        <Route path="/flows" element={<FlowsPage />} />
        <Route
          path="/flows/:flowId"
          element={
            <Loaded>
              <EditorPage />
            </Loaded>
          }
        />
        <Route path="/runs" element={<RunsPage />} />
        <Route
          path="/runs/:runId"
          element={
            <Loaded>
              <RunPage />
            </Loaded>
          }
        />
        <Route path="/inbox" element={<InboxPage />} />
        <Route path="/approvals/:approvalId" element={<ApprovalPage />} />
        <Route path="/audit" element={<AuditPage />} />
        <Route path="/people" element={<PeoplePage />} />
        <Route path="*" element={<Placeholder title="ui_page_not_found" />} />
      </Route>
    </Routes>
  );
}
