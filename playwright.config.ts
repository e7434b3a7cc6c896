import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './scripts/chromium';

// E2E_PORT lets two runs (a fresh clone and a working tree) share one machine.
const port = Number(process.env.E2E_PORT ?? 5174);

export default defineConfig({
  testDir: 'e2e',
  // A committed test.only would silently skip every other spec: refuse it, locally and in CI.
  forbidOnly: true,
  workers: 1,
  retries: 0,
  reporter: 'list',
  use: {
    baseURL: `http://127.0.0.1:${port}/`,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  // The production build, as users get it (npm start): React's development mode and Vite's
  // on-demand transforms made the dev server the slowest part of a run. One build folder a port,
  // so two runs on one machine never serve each other's build.
  webServer: {
    command: `npx vite build --logLevel warn --outDir node_modules/.cache/e2e-dist-${port} && npx vite preview --outDir node_modules/.cache/e2e-dist-${port} --port ${port} --strictPort --host 127.0.0.1`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 120_000,
  },
});
