#!/usr/bin/env node
// Draws the web app manifest's PNG icons and the social preview image from
// web/favicon.svg in Debian's Chromium, into web/icons/. Run it after
// changing the logo: node scripts/icons.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from '../e2e/web/browser.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const svg = fs.readFileSync(path.join(root, 'web/favicon.svg'), 'utf8');
const out = path.join(root, 'web/icons');
fs.mkdirSync(out, { recursive: true });

// A maskable icon keeps its mark inside the central 80 % circle: the logo's
// bars on a full-bleed background.
const maskable = svg.replace('rx="7"', 'rx="0"').replace('viewBox="0 0 32 32"', 'viewBox="-5 -5 42 42" style="background:#1f4f8f"');
const social = `<div style="width:1200px;height:630px;display:flex;align-items:center;gap:64px;padding:0 96px;box-sizing:border-box;background:#fbfaf7;font-family:system-ui,sans-serif;color:#1c2230">
  <div style="width:300px;height:300px;flex:none">${svg.replace('<svg ', '<svg width="300" height="300" ')}</div>
  <div><div style="font-size:96px;font-weight:800;letter-spacing:-2px">dp<span style="color:#1f4f8f">play</span></div>
  <div style="font-size:44px;line-height:1.25;margin-top:16px">Learn differential privacy by moving ε and watching exact probabilities.</div></div></div>`;

const jobs = [
  ['icon-192.png', 192, svg], ['icon-512.png', 512, svg],
  ['maskable-512.png', 512, maskable], ['social.png', [1200, 630], social],
];
const browser = await launch();
for (const [name, size, src] of jobs) {
  const [w, h] = Array.isArray(size) ? size : [size, size];
  const page = await browser.newPage({ viewport: { width: w, height: h } });
  const body = src.startsWith('<svg') ? src.replace('<svg ', `<svg width="${w}" height="${h}" `) : src;
  await page.setContent(`<html><body style="margin:0;background:transparent">${body}</body></html>`);
  await page.screenshot({ path: path.join(out, name), omitBackground: true });
  await page.close();
}
await browser.close();
