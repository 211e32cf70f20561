// The page routes. The server answers each of these paths with index.html (backend/api/static.py
// PAGE_PREFIXES): a new top-level route must be added there too.
import { Navigate, Route, Routes } from 'react-router';
import { Login } from './Login';
import { Layout } from './Layout';
import { Placeholder } from './Placeholder';
import { FlowsPage } from '../flows/FlowsPage';
import { EditorPage } from '../flows/EditorPage';
import { RunsPage } from '../runs/RunsPage';
import { RunPage } from '../runs/RunPage';
import { InboxPage } from '../inbox/InboxPage';
import { ApprovalPage } from '../inbox/ApprovalPage';
import { AuditPage } from '../audit/AuditPage';
import { PeoplePage } from '../people/PeoplePage';

export function App() {
  return (
    <Routes>
      <Route path="/login" element={<Login />} />
      <Route element={<Layout />}>
        <Route index element={<Navigate to="/flows" replace />} />
        <Route path="/flows" element={<FlowsPage />} />
        <Route path="/flows/:flowId" element={<EditorPage />} />
        <Route path="/runs" element={<RunsPage />} />
        <Route path="/runs/:runId" element={<RunPage />} />
        <Route path="/inbox" element={<InboxPage />} />
        <Route path="/approvals/:approvalId" element={<ApprovalPage />} />
        <Route path="/audit" element={<AuditPage />} />
        <Route path="/people" element={<PeoplePage />} />
        <Route path="*" element={<Placeholder title="ui_page_not_found" />} />
      </Route>
    </Routes>
  );
}
