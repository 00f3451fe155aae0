// pictures.mjs draws every Mermaid picture of the workbook (collect.mjs),
// and those of every scenario file that .ci/mermaid/pictures draws into a
// directory, with Mermaid in Debian's headless Chromium, at the width of a
// GitHub README's column (900 pixels), as a learner sees them. It measures
// each as Mermaid draws it, before GitHub shrinks it to the column, and
// fails when one is over a limit:
//
//   - wider than 1,200 pixels: GitHub would shrink its text below about
//     three quarters of its size;
//   - lab 06's loop chart taller than 1,600 pixels;
//   - a lane of a sequence diagram with two bars at once, which Mermaid
//     draws when two calls share a lane, so that one call's bar ends with
//     another's end;
//   - a text that sticks out of the picture, where it is cut off.
//
//   node pictures.mjs [-list] [-shots DIR] [SCENARIO-PICTURES-DIR]
//
// -list prints every picture's size; -shots writes a screenshot of each
// into DIR, to look at. Run it with .ci/mermaid/pictures, which installs
// what it needs and draws the scenarios' pictures first.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launch } from '../browser/browser.mjs';
import { mermaidVersion, pictures } from './collect.mjs';

// The limits, in pixels, as Mermaid draws a picture.
const maxWidth = 1200;
const maxHeight = { '06-steering': 1600 };

// column is the width of a README's column on GitHub.
const column = 900;

const args = process.argv.slice(2);
let list = false;
let shots = '';
let extra = '';
while (args.length > 0) {
  const arg = args.shift();
  if (arg === '-list') list = true;
  else if (arg === '-shots') shots = args.shift() ?? '';
  else extra = arg;
}
if (shots) mkdirSync(shots, { recursive: true });

const all = pictures(extra);
const browser = await launch();
const page = await browser.newPage({ viewport: { width: column, height: 800 } });
await page.setContent(`<!doctype html><html><body style="margin:0;background:#fff"><div id="picture" style="width:${column}px"></div></body></html>`);
await page.addScriptTag({ path: join(import.meta.dirname, 'node_modules', 'mermaid', 'dist', 'mermaid.min.js') });
await page.evaluate(() => window.mermaid.initialize({ startOnLoad: false }));

// measure draws text in the page and returns its size, the pairs of bars
// that overlap on one lane, and the texts that stick out of the picture.
async function measure(text, id) {
  return page.evaluate(async ([text, id]) => {
    const box = document.getElementById('picture');
    box.innerHTML = '';
    try {
      box.innerHTML = (await window.mermaid.render(id, text)).svg;
    } catch (err) {
      return { error: String(err.message ?? err) };
    }
    const svg = box.querySelector('svg');
    const view = svg.viewBox.baseVal;
    // Where an element lies on the page, which transforms its groups.
    const page = svg.getBoundingClientRect();
    const place = (e) => e.getBoundingClientRect();
    // A bar is an activation: a lane's call, from its start to its end.
    // Two bars that overlap both across and down lie on one lane at once.
    const bars = [...svg.querySelectorAll('rect[class^=activation]')].map(place);
    let overlaps = 0;
    for (let i = 0; i < bars.length; i++) {
      for (let j = i + 1; j < bars.length; j++) {
        const a = bars[i], b = bars[j];
        if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height - 1 && b.y < a.y + a.height - 1) overlaps++;
      }
    }
    const cut = [];
    for (const t of svg.querySelectorAll('text')) {
      const b = place(t);
      if (b.width === 0) continue;
      if (b.left < page.left - 2 || b.top < page.top - 2 || b.right > page.right + 2 || b.bottom > page.bottom + 2) {
        cut.push(t.textContent.slice(0, 40));
      }
    }
    return { width: Math.round(view.width), height: Math.round(view.height), overlaps, cut };
  }, [text, id]);
}

let failed = 0;
let widest = 0;
for (const [i, picture] of all.entries()) {
  const m = await measure(picture.text, `picture${i}`);
  const problems = [];
  if (m.error) {
    problems.push(`Mermaid cannot draw it: ${m.error}`);
  } else {
    widest = Math.max(widest, m.width);
    if (m.width > maxWidth) problems.push(`${m.width} pixels wide, more than ${maxWidth}`);
    const limit = maxHeight[picture.loop];
    if (limit && m.height > limit) problems.push(`${m.height} pixels tall, more than ${limit}`);
    if (m.overlaps > 0) problems.push(`${m.overlaps} pair(s) of bars on one lane at once`);
    if (m.cut.length > 0) problems.push(`text that sticks out of the picture: ${m.cut.map((t) => JSON.stringify(t)).join(', ')}`);
    if (shots) {
      const name = picture.where.replace(/[^A-Za-z0-9.-]+/g, '_');
      await page.locator('#picture').screenshot({ path: join(shots, `${String(i + 1).padStart(3, '0')}-${name}.png`) });
    }
  }
  if (list) console.log(`${m.error ? 'error' : `${m.width}x${m.height}`}\t${picture.where}`);
  if (problems.length > 0) {
    failed++;
    console.log(`FAIL ${picture.where}: ${problems.join('; ')}`);
  }
}
await browser.close();
console.log(`${all.length - failed} passed, ${failed} failed: the workbook's pictures, drawn by Mermaid ${mermaidVersion()} in Chromium at ${column} pixels; the widest is ${widest} pixels (limit ${maxWidth})`);
// A check that found nothing to draw has checked nothing.
if (failed > 0 || all.length < 40) process.exit(1);
