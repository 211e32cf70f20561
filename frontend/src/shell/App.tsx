// The page routes. The server answers each of these paths with index.html (backend/api/static.py
// PAGE_PREFIXES): a new top-level route must be added there too.
import { Navigate, Route, Routes } from 'react-router';
import { Login } from './Login';
import { Layout } from './Layout';
import { Placeholder } from './Placeholder';
import { FlowsPage } from '../flows/FlowsPage';
import { EditorPage } from '../flows/EditorPage';

export function App() {
  return (
    <Routes>
      <Route path="/login" element={<Login />} />
      <Route element={<Layout />}>
        <Route index element={<Navigate to="/flows" replace />} />
        <Route path="/flows" element={<FlowsPage />} />
        <Route path="/flows/:flowId" element={<EditorPage />} />
        <Route path="/runs" element={<Placeholder title="ui_nav_runs" />} />
        <Route path="/runs/:runId" element={<Placeholder title="ui_nav_runs" />} />
        <Route path="/inbox" element={<Placeholder title="ui_nav_inbox" />} />
        <Route path="/approvals/:approvalId" element={<Placeholder title="ui_nav_inbox" />} />
        <Route path="/audit" element={<Placeholder title="ui_nav_audit" />} />
        <Route path="/people" element={<Placeholder title="ui_nav_people" />} />
        <Route path="*" element={<Placeholder title="ui_page_not_found" />} />
      </Route>
    </Routes>
  );
}
