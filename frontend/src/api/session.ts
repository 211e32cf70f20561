// Who is logged in and the CSRF token their writes echo. The token also comes back from /api/me, so a
// reload or a second tab needs no new login while the cookie lives.
import { create } from 'zustand';

interface Session {
  user: string | null;
  csrf: string | null;
  set: (user: string | null, csrf: string | null) => void;
}

export const useSession = create<Session>((set) => ({
  user: null,
  csrf: null,
  set: (user, csrf) => set({ user, csrf }),
}));
