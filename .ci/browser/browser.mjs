// browser.mjs starts Debian's headless Chromium for the maintainer's browser
// checks, through playwright-core. Run .ci/browser/ensure first: it installs
// both where they are missing.
//
//   import { launch } from '../browser/browser.mjs';
//   const browser = await launch();
//   const page = await browser.newPage({ viewport: { width: 900, height: 800 } });
//   ...
//   await browser.close();
import { chromium } from 'playwright-core';

// flags keep Chromium off the network: a browser check loads local files
// only, and on a machine without a network, Chromium's own background
// connections (updates, sync, field trials) would fail at every start.
const flags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-features=Translate,MediaRouter,OptimizationHints',
];

// launch starts Chromium, headless, with a new empty profile.
export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: flags,
  });
}
