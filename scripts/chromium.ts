// How the end-to-end tests (playwright.config.ts) and the UI benchmark (bench-ui.ts) start a browser:
// Debian's Chromium (installed by scripts/ensure-chromium.sh), never a browser Playwright downloads.
export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
