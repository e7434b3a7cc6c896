import { expect, test } from '@playwright/test';

// Importing a file, as a person does (docs/sharing.md, Files): a file over the size bound is
// refused at once by its size, and one within it opens.
const STARTUP_TIMEOUT_MS = 30_000;
const MiB = 1024 * 1024;

/** A valid bare scenario, padded with spaces to `bytes`. */
function scenarioFile(name: string, bytes: number) {
  const json = JSON.stringify({
    version: 1,
    seed: 7,
    nodes: [
      { id: 1, roles: ['controller', 'broker'], rack: 'zone-a' },
      { id: 2, roles: ['controller', 'broker'], rack: 'zone-b' },
      { id: 3, roles: ['controller', 'broker'], rack: 'zone-c' },
    ],
    topics: [{ name: 'padded', partitions: 1, replicationFactor: 3 }],
  });
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
