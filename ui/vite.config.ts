import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Built into the server's class path (ui/build.sh passes --outDir); `npm run dev` proxies the API to a local
// `polyrag serve` on :8080.
export default defineConfig({
  plugins: [react()],
  base: '/',
  build: { sourcemap: false, chunkSizeWarningLimit: 1024 },
  server: {
    host: '127.0.0.1',
    proxy: { '/v1': 'http://127.0.0.1:8080', '/health': 'http://127.0.0.1:8080', '/ready': 'http://127.0.0.1:8080' },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
  },
});
