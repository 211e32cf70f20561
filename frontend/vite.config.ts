import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// The build goes to dist/, assets content-hashed under dist/assets (the server caches them forever).
// `npm run dev` proxies the API to a `flowyard serve` on port 8000.
export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', assetsDir: 'assets', sourcemap: false },
  server: { proxy: { '/api': 'http://127.0.0.1:8000', '/hooks': 'http://127.0.0.1:8000' } },
  // Tests assert outcomes, not speed: on a loaded 2-core machine (CI runs them beside pytest) a test that
  // imports the schema validator or walks a large document can take far longer than vitest's default 5 s.
  test: { include: ['src/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
});
