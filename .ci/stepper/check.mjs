// check.mjs opens each lab's page (-html) in headless Chromium, from the
// file system, and steps through it as a learner does, with the keyboard:
// at chosen steps it checks the history, the queues, the tool calls and the
// counts the page shows, that #step=N opens step N, and that the console
// holds no error. It takes screenshots at 1280×800 and 390×844, in English
// and in Chinese, for a person to look at.
//
//   node .ci/stepper/check.mjs PAGES SHOTS
//
// PAGES holds the pages .ci/stepper/check wrote (LAB.LANG.html); SHOTS
// receives the screenshots.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launch } from '../browser/browser.mjs';

const [pages, shots] = process.argv.slice(2);
mkdirSync(shots, { recursive: true });

// A check is what the page must show at one step, found by its trace line
// (labs 05, 06) or its place among the six steps of the loop (labs 02 to
// 04): the nth such step of the page, or of its part number part.
const labs = {
  '02-loop': [
    { find: { loop: '5' },
      history: ['user', 'assistant', 'toolResult'], counts: { turn: '1', steps: '2', messages: '3' } },
    { end: true, history: ['user', 'assistant', 'toolResult', 'assistant'], counts: { turn: '2', steps: '3', messages: '4' } },
  ],
  '03-maxturns': [
    { find: { part: 1, loop: 'end' },
      history: ['user', 'assistant', 'toolResult', 'assistant', 'toolResult', 'assistant', 'toolResult'], counts: { turn: '3', steps: '6', messages: '7' } },
  ],
  '04-tool-errors': [
    { find: { part: 2, loop: '5', nth: 9 },
      counts: { turn: '1', steps: '10', messages: '11' }, calls: { call_2: 'past', call_9: 'past' } },
    { end: true, history: ['user', 'assistant', 'toolResult', 'assistant'], counts: { turn: '2', steps: '3', messages: '4' } },
  ],
  '05-parallel': [
    { find: { line: 'tool_execution_end call_2' }, history: ['user', 'assistant'],
      counts: { turn: '1', steps: '4', messages: '2' }, calls: { call_1: 'now', call_2: 'past', call_3: 'now' } },
    { find: { line: 'turn_end results=3' }, history: ['user', 'assistant', 'toolResult', 'toolResult', 'toolResult'],
      calls: { call_1: 'past', call_2: 'past', call_3: 'past' } },
    { find: { line: 'message_update assistant', nth: 3 }, streaming: 'I will look ' },
  ],
  '06-steering': [
    { find: { part: 1, line: 'tool_execution_start call_1 search' }, history: ['user', 'assistant'],
      steering: ['Only direct flights.', 'Under 900 €, please.'], followUp: [] },
    { find: { part: 1, line: 'turn_end results=1' }, followUp: ['Book the cheapest one.'] },
    { find: { part: 1, line: 'turn_start', nth: 2 }, steering: ['Under 900 €, please.'], taken: ['Only direct flights.'] },
    { find: { part: 4, line: 'agent_end messages=3' }, steering: ['Only direct flights.'], counts: { turn: '1', messages: '3' } },
    { end: true, history: ['user', 'assistant', 'toolResult', 'user', 'assistant'], steering: [], counts: { messages: '5' } },
  ],
  'tricky': [
    { end: true, texts: [
      "Say </script><script>alert('prompt')</script> and <!-- this -->",
      "</script><script>alert('reply')</script> <!-- a comment --> <b>not bold</b>a line",
      "<script>alert('result')</script>",
      "<script>alert('steering')</script>",
      "Done: </style><style>body{display:none}</style> & \"quoted\" 'text'",
    ] },
  ],
};

// The screenshots: the step each lab's shows, by a check's find.
const shotAt = {
  '02-loop': { loop: '4' },
  '03-maxturns': { part: 1, loop: 'end' },
  '04-tool-errors': { part: 2, loop: '5', nth: 3 },
  '05-parallel': { line: 'tool_execution_update call_3' },
  '06-steering': { part: 1, line: 'tool_execution_end call_1' },
};

const browser = await launch();
let failures = 0;
let checked = 0;
const fail = (where, what) => {
  failures++;
  console.log(`FAIL ${where}: ${what}`);
};

// findStep returns the number of the step find names, on the page.
async function findStep(page, find) {
  return page.evaluate((f) => {
    const parts = Array.from(document.querySelectorAll('section.part'));
    const hits = Array.from(document.querySelectorAll('li.step')).filter((li) => {
      const part = parts.indexOf(li.closest('section.part')) + 1;
      const line = ((li.dataset.event || '') + ' ' + li.querySelector('.label').textContent).trim();
      return (!f.part || part === f.part) && (!f.loop || li.dataset.loopStep === f.loop) && (!f.line || line === f.line);
    });
    const li = hits[(f.nth || 1) - 1];
    return li ? Number(li.dataset.n) : 0;
  }, find);
}

// state reads what the page shows now.
async function state(page) {
  return page.evaluate(() => {
    const part = document.querySelector('section.part[data-state="now"]');
    const shown = (sel) => Array.from(part.querySelectorAll(sel)).filter((el) => el.offsetParent !== null);
    return {
      current: Number((document.querySelector('li.step.current') || { dataset: { n: 0 } }).dataset.n),
      slider: Number(document.getElementById('slider').value),
      hash: location.hash,
      history: shown('[data-message]').map((el) => el.dataset.message),
      texts: shown('[data-message] .text').map((el) => el.textContent),
      steering: shown('ol[data-queue="steering"] li[data-state="now"] .text').map((el) => el.textContent),
      followUp: shown('ol[data-queue="followUp"] li[data-state="now"] .text').map((el) => el.textContent),
      taken: shown('ol[data-queue] li.gone .text').map((el) => el.textContent),
      streaming: shown('.draft .text span[data-from]').map((el) => el.textContent).join(''),
      calls: Object.fromEntries(shown('.run[data-state="now"] .lane').map((el) => [el.querySelector('code').textContent, el.dataset.state])),
      counts: { turn: document.getElementById('turn').textContent, steps: document.getElementById('steps').textContent, messages: document.getElementById('messages').textContent },
      total: document.querySelectorAll('li.step').length,
    };
  });
}

// goTo moves to step n with the keyboard, from wherever the page is.
async function goTo(page, n) {
  const { current } = await state(page);
  const key = n > current ? 'ArrowRight' : 'ArrowLeft';
  for (let i = 0; i < Math.abs(n - current); i++) {
    await page.keyboard.press(key);
  }
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

for (const [lab, checks] of Object.entries(labs)) {
  for (const lang of lab === 'tricky' ? ['en'] : ['en', 'zh']) {
    const where = `${lab} (${lang})`;
    const failedBefore = failures;
    const url = pathToFileURL(join(pages, `${lab}.${lang}.html`)).href;
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('dialog', (d) => { errors.push(`a dialog opened: ${d.message()}`); d.dismiss(); });
    page.on('request', (r) => { if (!r.url().startsWith('file:')) errors.push(`a request to ${r.url()}`); });
    await page.goto(url);

    let s = await state(page);
    if (s.current !== 0 || s.history.length !== 0 && lab !== 'tricky') {
      fail(where, `opens at step ${s.current} with history ${s.history}, want step 0`);
    }
    await page.keyboard.press('End');
    s = await state(page);
    if (s.current !== s.total || s.slider !== s.total || s.hash !== `#step=${s.total}`) {
      fail(where, `End goes to step ${s.current} (slider ${s.slider}, ${s.hash}), want ${s.total}`);
    }
    await page.keyboard.press('Home');
    if ((await state(page)).current !== 0) fail(where, 'Home does not go back to step 0');

    for (const c of checks) {
      const n = c.end ? s.total : await findStep(page, c.find);
      if (n === 0) {
        fail(where, `no step ${JSON.stringify(c.find)}`);
        continue;
      }
      await goTo(page, n);
      const got = await state(page);
      const at = `${where} at step ${n}`;
      checked++;
      if (got.current !== n || got.hash !== `#step=${n}`) fail(at, `the keyboard led to step ${got.current}, ${got.hash}`);
      if (c.history && !same(got.history, c.history)) fail(at, `history ${JSON.stringify(got.history)}, want ${JSON.stringify(c.history)}`);
      if (c.texts && !same(got.texts, c.texts)) fail(at, `the history's texts ${JSON.stringify(got.texts)}, want ${JSON.stringify(c.texts)}`);
      for (const q of ['steering', 'followUp', 'taken']) {
        if (c[q] && !same(got[q], c[q])) fail(at, `${q} ${JSON.stringify(got[q])}, want ${JSON.stringify(c[q])}`);
      }
      if (c.streaming !== undefined && got.streaming !== c.streaming) fail(at, `the reply streams in as ${JSON.stringify(got.streaming)}, want ${JSON.stringify(c.streaming)}`);
      for (const [id, st] of Object.entries(c.calls || {})) {
        if (got.calls[id] !== st) fail(at, `${id} is ${got.calls[id]}, want ${st}`);
      }
      for (const [k, v] of Object.entries(c.counts || {})) {
        if (got.counts[k] !== v) fail(at, `the count of ${k} is ${got.counts[k]}, want ${v}`);
      }
    }

    // A link to a step opens that step.
    const linked = Math.max(1, Math.floor(s.total / 2));
    await page.goto(`${url}#step=${linked}`);
    await page.reload();
    s = await state(page);
    if (s.current !== linked || s.slider !== linked) fail(where, `#step=${linked} opens step ${s.current}`);
    await page.keyboard.press('ArrowLeft');
    if ((await state(page)).current !== linked - 1) fail(where, `← from step ${linked} does not go to step ${linked - 1}`);

    if (shotAt[lab]) {
      // Each in a page of its own, opened at the step, as a link opens it.
      const n = await findStep(page, shotAt[lab]);
      for (const [w, h] of [[1280, 800], [390, 844]]) {
        const shot = await browser.newPage({ viewport: { width: w, height: h } });
        shot.on('pageerror', (e) => errors.push(e.message));
        await shot.goto(`${url}#step=${n}`);
        await shot.screenshot({ path: join(shots, `${lab}.${lang}.${w}x${h}.png`) });
        await shot.close();
      }
    }
    for (const e of errors) fail(where, `the console says: ${e}`);
    await page.close();
    console.log(`${failures > failedBefore ? 'FAIL' : 'ok  '} ${where}`);
  }
}
await browser.close();
console.log(`${checked} steps checked, ${failures} failures; screenshots in ${shots}`);
if (failures > 0 || checked < 20) process.exit(1);
