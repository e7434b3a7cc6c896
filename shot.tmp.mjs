// usage: node shot.tmp.mjs URL OUT W H WAITMS [script]
import { chromium } from '@playwright/test';
const [,, url, out, w, h, wait, action] = process.argv;
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu'] });
const ctx = await b.newContext({ viewport: { width: Number(w), height: Number(h) } });
ctx.setDefaultTimeout(120000);
const p = await ctx.newPage();
await p.goto('http://127.0.0.1:5184' + url);
await p.waitForTimeout(Number(wait ?? 1200));
if (action) { await eval(action); }
await p.screenshot({ path: out, timeout: 120000 });
await b.close();
