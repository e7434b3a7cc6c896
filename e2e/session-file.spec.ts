import { expect, test } from '@playwright/test';

// Importing a file, as a person does (docs/sharing.md, Files): a file over the size bound is
// refused at once by its size, and one within it opens.
const STARTUP_TIMEOUT_MS = 30_000;
const MiB = 1024 * 1024;

/** A valid bare scenario: three combined nodes, one topic. */
const SCENARIO = {
  version: 1,
  seed: 7,
  nodes: [
    { id: 1, roles: ['controller', 'broker'], rack: 'zone-a' },
    { id: 2, roles: ['controller', 'broker'], rack: 'zone-b' },
    { id: 3, roles: ['controller', 'broker'], rack: 'zone-c' },
  ],
  topics: [{ name: 'padded', partitions: 1, replicationFactor: 3 }],
};

/** The scenario as a file, padded with spaces to `bytes`. */
function scenarioFile(name: string, bytes: number) {
  const json = JSON.stringify(SCENARIO);
  return { name, mimeType: 'application/json', buffer: Buffer.from(json + ' '.repeat(bytes - json.length)) };
}

test.beforeEach(async ({ page }) => {
  await page.goto('./');
  await expect(page.getByRole('group', { name: /^Broker 4, .*leader of/ })).toBeVisible({
    timeout: STARTUP_TIMEOUT_MS,
  });
});

test('a file over 5 MiB is refused by its size, naming the file and the bound; the session is kept', async ({
  page,
}) => {
  await page.getByLabel('Import a session or scenario file').setInputFiles(scenarioFile('big.json', 6 * MiB));
  const panel = page.getByRole('alert', { name: 'Could not open' });
  await expect(panel).toContainText('big.json is 6.0 MB; a session or scenario file may have at most 5.0 MB');
  await expect(panel).toContainText('the running session is kept');
  await expect(page.getByRole('group', { name: /^Broker 4, / })).toBeVisible();
});

test('a file just under the bound opens', async ({ page }) => {
  await page
    .getByLabel('Import a session or scenario file')
    .setInputFiles(scenarioFile('padded.json', 5 * MiB - 1));
  await expect(page.getByRole('status', { name: 'Opened session' })).toContainText(
    'Opened from padded.json',
    {
      timeout: STARTUP_TIMEOUT_MS,
    },
  );
  await expect(page.getByRole('group', { name: /^Broker and controller 3, / })).toBeVisible();
});

test('a file with thousands of problems lists the first 50 and counts the rest', async ({ page }) => {
  const session = {
    format: 1,
    engineVersion: 'any',
    scenario: SCENARIO,
    // Each action lacks its command's fields: one problem an action.
    actions: Array.from({ length: 3000 }, (_, i) => ({ atMs: i, command: { type: 'produce' } })),
    positionMs: 0,
  };
  await page.getByLabel('Import a session or scenario file').setInputFiles({
    name: 'many.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(session)),
  });
  const panel = page.getByRole('alert', { name: 'Could not open' });
  await expect(panel).toContainText(/\d+ problems:/);
  await expect(panel.getByRole('listitem')).toHaveCount(50);
  await expect(panel).toContainText(/The first 50 are listed; \d+ more problems not listed\./);
});
