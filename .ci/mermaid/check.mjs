// check.mjs parses every Mermaid picture the workbook prints or embeds
// (collect.mjs) with Mermaid itself (mermaid.parse), and fails if one does
// not parse. It needs no browser: jsdom stands in for one, since Mermaid
// wants a DOM even to parse. pictures.mjs draws them in a real browser.
//
// Run it with .ci/mermaid/check, which installs Mermaid first.
import { JSDOM } from 'jsdom';
import { mermaidVersion, pictures } from './collect.mjs';

const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
for (const name of ['DOMParser', 'Element', 'HTMLElement', 'Node', 'navigator']) {
  if (!(name in globalThis)) globalThis[name] = dom.window[name];
}
const { default: mermaid } = await import('mermaid');
mermaid.initialize({ startOnLoad: false });

const diagrams = pictures();
let failed = 0;
for (const { where, text } of diagrams) {
  try {
    await mermaid.parse(text);
  } catch (err) {
    failed++;
    console.log(`FAIL ${where}\n${String(err.message ?? err)}\n`);
  }
}
console.log(`${diagrams.length - failed} passed, ${failed} failed: the workbook's diagrams, parsed by Mermaid ${mermaidVersion()}`);
// A check that found nothing to check has checked nothing.
if (failed > 0 || diagrams.length < 20) process.exit(1);
