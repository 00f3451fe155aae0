// check.mjs parses every Mermaid diagram the workbook prints or embeds with
// Mermaid itself (mermaid.parse), and fails if one does not parse:
//
//   - each golden file in expected/ that holds a diagram (the output of a
//     lab's -diagram or -timeline),
//   - each ```mermaid block of every README, in both languages (the loop
//     charts and the run diagrams),
//   - each file labs/diagram/testdata/*.mmd (the labels of every tricky
//     text a run can hold, drawn by TestTrickyTextsDrawWellFormedDiagrams).
//
// Run it with .ci/mermaid/check, which installs Mermaid first. Mermaid
// wants a browser's DOM even to parse; jsdom stands in for one.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { JSDOM } from 'jsdom';

const root = join(import.meta.dirname, '..', '..');

const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
for (const name of ['DOMParser', 'Element', 'HTMLElement', 'Node', 'navigator']) {
  if (!(name in globalThis)) globalThis[name] = dom.window[name];
}
const { default: mermaid } = await import('mermaid');
mermaid.initialize({ startOnLoad: false });

// diagramStart matches the first line of a diagram the labs print.
const diagramStart = /^(sequenceDiagram|gantt|flowchart )/;

// skipped are the directories no diagram of the workbook lives in.
const skipped = new Set(['.git', 'node_modules', 'mywork', 'testdata']);

// readmes returns the paths of every README under dir.
function readmes(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!skipped.has(entry.name) && !entry.name.startsWith('_') && !entry.name.startsWith('.')) {
        found.push(...readmes(join(dir, entry.name)));
      }
    } else if (entry.name === 'README.md' || entry.name === 'README.zh-CN.md') {
      found.push(join(dir, entry.name));
    }
  }
  return found;
}

// mermaidBlocks returns the ```mermaid blocks of a Markdown text.
function mermaidBlocks(text) {
  const blocks = [];
  let block = null;
  for (const line of text.split('\n')) {
    if (block === null && line === '```mermaid') {
      block = [];
    } else if (block !== null && line.startsWith('```')) {
      blocks.push(block.join('\n') + '\n');
      block = null;
    } else if (block !== null) {
      block.push(line);
    }
  }
  return blocks;
}

// diagrams are what to parse: where each comes from, and its text.
const diagrams = [];
const expected = join(root, 'expected');
for (const name of readdirSync(expected).filter((n) => n.endsWith('.txt')).sort()) {
  const text = readFileSync(join(expected, name), 'utf8');
  if (diagramStart.test(text)) diagrams.push({ where: `expected/${name}`, text });
}
for (const path of readmes(root).sort()) {
  mermaidBlocks(readFileSync(path, 'utf8')).forEach((text, i) => {
    diagrams.push({ where: `${relative(root, path)}, diagram ${i + 1}`, text });
  });
}
const testdata = join(root, 'labs', 'diagram', 'testdata');
for (const name of readdirSync(testdata).filter((n) => n.endsWith('.mmd')).sort()) {
  diagrams.push({ where: `labs/diagram/testdata/${name}`, text: readFileSync(join(testdata, name), 'utf8') });
}

let failed = 0;
for (const { where, text } of diagrams) {
  try {
    await mermaid.parse(text);
  } catch (err) {
    failed++;
    console.log(`FAIL ${where}\n${String(err.message ?? err)}\n`);
  }
}
const version = JSON.parse(readFileSync(join(import.meta.dirname, 'node_modules', 'mermaid', 'package.json'), 'utf8')).version;
console.log(`${diagrams.length - failed} passed, ${failed} failed: the workbook's diagrams, parsed by Mermaid ${version}`);
// A check that found nothing to check has checked nothing.
if (failed > 0 || diagrams.length < 20) process.exit(1);
