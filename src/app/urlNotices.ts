// What the page says about its address when it does not do what the address asks: an unknown
// ?preset= or ?lesson= (the default cluster runs instead), a session link that cannot be opened.

/** The notices for `search` (location.search): one sentence each, naming the value and the valid ones. */
export function urlNotices(
  search: string,
  presetNames: readonly string[],
  lessonIds: readonly string[],
): string[] {
  const params = new URLSearchParams(search);
  const notices: string[] = [];
  const preset = params.get('preset');
  if (preset !== null && !presetNames.includes(preset))
    notices.push(
      `There is no preset “${preset}”: the default cluster runs instead. The presets are ${presetNames.join(', ')}.`,
    );
  const lesson = params.get('lesson');
  if (lesson !== null && !lessonIds.includes(lesson))
    notices.push(
      `There is no lesson “${lesson}”: no lesson was started. The lessons are ${lessonIds.join(', ')}.`,
    );
  return notices;
}

/**
 * What runs when the page opened with a session link that cannot be opened: nothing was running
 * yet, so the worker started the cluster of the address (the default one, or a known ?preset=).
 */
export function startedInstead(search: string, presetNames: readonly string[]): string {
  const preset = new URLSearchParams(search).get('preset');
  return preset !== null && preset !== 'default' && presetNames.includes(preset)
    ? `started the preset “${preset}” instead`
    : 'started the default cluster instead';
}
