import { expect, test, type Page } from '@playwright/test';

// The page's keys (src/store/keys.ts, listed by "?"): the keyboard alone drives the free canvas and
// a lesson, as a clicker (PageUp/PageDown, arrows, Space, B or period) or a keyboard would.
const TIMEOUT_MS = 60_000;
test.setTimeout(180_000);

const simTime = (page: Page) => page.getByLabel('Simulated time', { exact: true }).textContent();
const playback = (page: Page) => page.getByRole('group', { name: 'Playback' });

test('the keyboard alone drives the free canvas: play, pause, step, speed, help, presenter mode', async ({
  page,
}) => {
  await page.goto('./');
  await expect(page.getByRole('application', { name: 'Cluster canvas' })).toBeVisible({
    timeout: TIMEOUT_MS,
  });

  // ? shows every key, grouped; Escape closes it.
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await expect(help.getByRole('region', { name: /Outside a lesson/ })).toContainText('PageDown or →');
  await expect(help.getByRole('region', { name: /In a lesson/ })).toContainText('"Do it for me"');
  await expect(help.getByRole('region', { name: 'Anywhere' })).toContainText('presenter mode on or off');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();

  // Space pauses and plays; B (a clicker's "blank screen") pauses too.
  await page.keyboard.press(' ');
  await expect(playback(page).getByRole('button', { name: 'Play' })).toBeVisible();
  await page.keyboard.press(' ');
  await expect(playback(page).getByRole('button', { name: 'Pause' })).toBeVisible();
  await page.keyboard.press('b');
  await expect(playback(page).getByRole('button', { name: 'Play' })).toBeVisible();

  // PageDown goes on to the next logged event (as Event › does), PageUp back one.
  const before = await simTime(page);
  await expect(async () => {
    await page.keyboard.press('PageDown');
    expect(await simTime(page)).not.toBe(before);
  }).toPass({ timeout: TIMEOUT_MS });
  await expect(playback(page).getByRole('button', { name: 'Play' })).toBeVisible();
  const stepped = await simTime(page);
  await expect(async () => {
    await page.keyboard.press('PageUp');
    expect(await simTime(page)).not.toBe(stepped);
  }).toPass({ timeout: TIMEOUT_MS });

  // + and - move along the speed list.
  const speed = page.getByLabel('Speed');
  await expect(speed).toHaveValue('1');
  await page.keyboard.press('+');
  await expect(speed).toHaveValue('2');
  await page.keyboard.press('+');
  await expect(speed).toHaveValue('5');
  await page.keyboard.press('-');
  await expect(speed).toHaveValue('2');

  // P: presenter mode on (the lesson dock opens with its switch pressed) and off.
  await page.keyboard.press('p');
  await expect(page.locator('body')).toHaveClass(/presenting/);
  await expect(page.getByRole('button', { name: 'Presenter mode' })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('p');
  await expect(page.getByRole('button', { name: 'Presenter mode' })).toHaveAttribute('aria-pressed', 'false');

  // Keys typed into a field stay in the field.
  await page.getByRole('tab', { name: 'Controls' }).click();
  const value = page.getByRole('tabpanel', { name: 'Controls' }).getByLabel('Value', { exact: true }).first();
  await value.fill('');
  await value.pressSequentially('p+b ');
  await expect(value).toHaveValue('p+b ');
  await expect(page.locator('body')).not.toHaveClass(/presenting/);
  await expect(speed).toHaveValue('2');
});

test('the keyboard alone plays a lesson: PageDown moves on, digits choose, PageDown does the task', async ({
  page,
}) => {
  await page.goto('./?lesson=broker-failure');
  const lesson = page.getByRole('region', { name: 'Lesson: A broker dies' });
  const next = lesson.getByRole('button', { name: 'Next step' });
  await expect(next).toBeVisible({ timeout: TIMEOUT_MS });
  await page.keyboard.press('+');
  await expect(page.getByLabel('Speed')).toHaveValue('50');

  await page.keyboard.press('PageDown');
  await expect(lesson.getByRole('heading', { name: 'A producer at work' })).toBeVisible();
  await expect(next).toBeVisible({ timeout: TIMEOUT_MS });
  await page.keyboard.press('ArrowRight');

  // Broker 4 crashes: the step's subject is ringed on the canvas.
  await expect(lesson.getByRole('heading', { name: 'Broker 4 crashes' })).toBeVisible();
  await expect(page.getByRole('group', { name: /Broker 4.*this step's subject/ })).toBeVisible();
  await page.keyboard.press('2');
  await expect(lesson.getByRole('button', { name: /^2\. / })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('PageDown'); // "Do it for me": crash broker 4
  await expect(lesson.getByRole('status', { name: 'Reveal' })).toBeVisible({ timeout: TIMEOUT_MS });
  await page.keyboard.press(' ');
  await expect(lesson.getByRole('heading', { name: 'A new leader from the ISR' })).toBeVisible();

  // The clock holds for the prediction; period (the clicker's blank-screen key) lets it run, and
  // holds it again.
  await expect(playback(page).getByRole('button', { name: 'Play' })).toBeVisible();
  await page.keyboard.press('.');
  await expect(playback(page).getByRole('button', { name: 'Pause' })).toBeVisible();
  await page.keyboard.press('.');
  await expect(playback(page).getByRole('button', { name: 'Play' })).toBeVisible();
});
