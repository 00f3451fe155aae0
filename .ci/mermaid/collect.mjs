// collect.mjs finds every Mermaid picture the workbook prints or embeds,
// for the checks beside it (check.mjs parses them, pictures.mjs draws
// them):
//
//   - each golden file in expected/ that holds a picture (the output of a
//     lab's -diagram or -timeline),
//   - each ```mermaid block of every README, in both languages (the loop
//     charts and the run diagrams),
//   - each file labs/diagram/testdata/*.mmd (the labels of every tricky
//     text a run can hold, drawn by TestTrickyTextsDrawWellFormedDiagrams),
//   - each file of a directory given, such as the pictures that
//     .ci/mermaid/pictures draws of every scenario file.
//
// A timeline with nothing to draw is one line that says so, not a picture:
// it is left out.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

export const root = join(import.meta.dirname, '..', '..');

// pictureStart matches the first line of a picture the labs print: a
// directive that configures it, or its kind.
const pictureStart = /^(%%\{init: |sequenceDiagram\n|gantt\n|flowchart )/;

// skipped are the directories no picture of the workbook lives in.
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

// loopMarker matches the line before a lab's loop chart in its README.
const loopMarker = /^<!-- labs\/diagram: the loop of ([0-9a-z-]+) -->$/;

// mermaidBlocks returns the ```mermaid blocks of a Markdown text, each
// with its text and, for a lab's loop chart, the lab (loop).
function mermaidBlocks(text) {
  const blocks = [];
  let block = null;
  let before = '';
  for (const line of text.split('\n')) {
    if (block === null && line === '```mermaid') {
      block = { lines: [], loop: loopMarker.exec(before)?.[1] };
    } else if (block !== null && line.startsWith('```')) {
      blocks.push({ text: block.lines.join('\n') + '\n', loop: block.loop });
      block = null;
    } else if (block !== null) {
      block.lines.push(line);
    }
    before = line;
  }
  return blocks;
}

// pictures returns every picture, each with where it comes from (where),
// its text, and for a lab's loop chart the lab (loop); extra, if set, is a
// directory whose every file is one.
export function pictures(extra) {
  const found = [];
  const expected = join(root, 'expected');
  for (const name of readdirSync(expected).filter((n) => n.endsWith('.txt')).sort()) {
    const text = readFileSync(join(expected, name), 'utf8');
    if (pictureStart.test(text)) found.push({ where: `expected/${name}`, text });
  }
  for (const path of readmes(root).sort()) {
    mermaidBlocks(readFileSync(path, 'utf8')).forEach(({ text, loop }, i) => {
      found.push({ where: `${relative(root, path)}, diagram ${i + 1}`, text, loop });
    });
  }
  const testdata = join(root, 'labs', 'diagram', 'testdata');
  for (const name of readdirSync(testdata).filter((n) => n.endsWith('.mmd')).sort()) {
    found.push({ where: `labs/diagram/testdata/${name}`, text: readFileSync(join(testdata, name), 'utf8') });
  }
  if (extra) {
    for (const name of readdirSync(extra).sort()) {
      const text = readFileSync(join(extra, name), 'utf8');
      if (pictureStart.test(text)) found.push({ where: name, text });
    }
  }
  return found;
}

// mermaidVersion is the version of Mermaid that node_modules holds.
export function mermaidVersion() {
  return JSON.parse(readFileSync(join(import.meta.dirname, 'node_modules', 'mermaid', 'package.json'), 'utf8')).version;
}
