// Helpers shared by the end-to-end specs.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** Raises the playback speed with the header's Speed select (to the fastest option up to 100×). */
export async function raiseSpeed(page: Page) {
  const speed = page.getByRole('combobox', { name: /speed/i });
  if ((await speed.count()) !== 1) return;
  const values = await speed
    .locator('option')
    .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  const fastest = values.filter((v) => Number(v) <= 100).sort((a, b) => Number(b) - Number(a))[0];
  if (fastest) await speed.selectOption(fastest);
}

/** Sets the playback speed with the header's Speed select. */
export async function setSpeed(page: Page, speed: number) {
  await page.getByLabel('Speed').selectOption(String(speed));
}

/** Opens the default scenario at speed and the Controls tab; returns its panel. */
export async function openControls(page: Page) {
  await page.goto('./');
  await raiseSpeed(page);
  await page.getByRole('tab', { name: 'Controls' }).click();
  return page.getByRole('tabpanel', { name: 'Controls' });
}

/** Serious and critical accessibility violations on the page (axe-core, WCAG 2.x A and AA, best practices). */
export async function seriousViolations(page: Page, include?: string) {
  let builder = new AxeBuilder({ page }).withTags([
    'wcag2a',
    'wcag2aa',
    'wcag21a',
    'wcag21aa',
    'best-practice',
  ]);
  // A part of the page only (a 200-broker canvas takes axe minutes).
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }));
}

/**
 * Pastes `text` into the field: sets its value and fires the input event a paste fires (Playwright's
 * fill inserts 300 KB as typed text, which takes Chromium about 90 s here).
 */
export async function paste(page: Page, label: string, text: string) {
  await page.getByLabel(label).evaluate((field, value) => {
    const set = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!;
    set.call(field, value);
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }, text);
}
