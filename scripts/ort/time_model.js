#!/usr/bin/env node
// ONNX Runtime's median time per inference (CPU provider, graph optimisations on, 2 intra-op
// threads by default), on seeded random inputs; symbolic dims take --batch.
// Usage: node scripts/ort/time_model.js MODEL.onnx [--batch 1] [--threads 2] [--runs 50] [--warmup 5]
// Prints: ort,MODEL,batch=B,threads=T,MIN_MS,MEDIAN_MS
'use strict';
const path = require('path');
const { ort, createSession } = require('./ort_session');

function option(args, name, def) {
  const k = args.indexOf(name);
  return k >= 0 ? Number(args.splice(k, 2)[1]) : def;
}

async function main() {
  const args = process.argv.slice(2);
  const batch = option(args, '--batch', 1), threads = option(args, '--threads', 2);
  const runs = option(args, '--runs', 50), warmup = option(args, '--warmup', 5);
  if (args.length !== 1) {
    console.error('usage: node time_model.js MODEL.onnx [--batch B] [--threads T] [--runs R] [--warmup W]');
    process.exit(2);
  }
  const session = await createSession(args[0], threads);
  let seed = 12345;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
  const feeds = {};
  for (const meta of session.inputMetadata) {
    const dims = meta.shape.map((d) => (typeof d === 'number' && d >= 0 ? d : batch));
    const n = dims.reduce((a, b) => a * b, 1);
    feeds[meta.name] = new ort.Tensor('float32', Float32Array.from({ length: n }, rand), dims);
  }
  for (let k = 0; k < warmup; ++k) await session.run(feeds);
  const times = [];
  for (let k = 0; k < runs; ++k) {
    const t0 = process.hrtime.bigint();
    await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  const median = runs % 2 ? times[(runs - 1) / 2] : (times[runs / 2 - 1] + times[runs / 2]) / 2;
  console.log(`ort,${path.basename(args[0])},batch=${batch},threads=${threads},${times[0].toFixed(3)},${median.toFixed(3)}`);
}

main().catch((e) => {
  console.error('time_model.js:', e.message);
  process.exit(1);
});
