#!/usr/bin/env node
// Checks that onnxruntime-node, installed with `npm install --ignore-scripts` (no download at
// install time), carries its CPU library for this platform and that it loads.
'use strict';
const fs = require('fs');
const path = require('path');

const pkg = path.dirname(require.resolve('onnxruntime-node/package.json'));
const dir = path.join(pkg, 'bin', 'napi-v6', process.platform, process.arch);
const lib = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.startsWith('libonnxruntime')) : [];
if (!lib.length) {
  console.error(`check_install.js: no ONNX Runtime CPU library in ${dir}`);
  process.exit(1);
}
const ort = require('onnxruntime-node');
console.log(`onnxruntime-node ${ort.env.versions.node}: ${path.join(dir, lib[0])} loads; ` +
            `backends: ${JSON.stringify(ort.listSupportedBackends().map((b) => b.name))}`);
