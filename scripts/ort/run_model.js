#!/usr/bin/env node
// Expected outputs from an independent engine: runs MODEL with ONNX Runtime's CPU provider on
// DIR's input_K.pb (ONNX's test-data layout, e.g. .../test_data_set_0) and writes output_K.pb
// there, named after the model's outputs.
// Usage: node scripts/ort/run_model.js MODEL.onnx DIR [--threads 2]
'use strict';
const fs = require('fs');
const path = require('path');
const { decodeTensor, encodeTensor } = require('./tensor_pb');
const { ort, createSession } = require('./ort_session');

async function main() {
  const args = process.argv.slice(2);
  const t = args.indexOf('--threads');
  const threads = t >= 0 ? Number(args.splice(t, 2)[1]) : 2;
  if (args.length !== 2) {
    console.error('usage: node run_model.js MODEL.onnx DIR [--threads N]');
    process.exit(2);
  }
  const [model, dir] = args;
  const session = await createSession(model, threads);
  const feeds = {};
  session.inputNames.forEach((name, k) => {
    const file = path.join(dir, `input_${k}.pb`);
    const x = decodeTensor(fs.readFileSync(file));
    feeds[name] = new ort.Tensor('float32', x.data, x.dims);
  });
  const results = await session.run(feeds);
  session.outputNames.forEach((name, k) => {
    const y = results[name];
    const file = path.join(dir, `output_${k}.pb`);
    fs.writeFileSync(file, encodeTensor(name, y.dims, y.data));
    let amax = 0, sum2 = 0;
    for (const v of y.data) {
      amax = Math.max(amax, Math.abs(v));
      sum2 += v * v;
    }
    const rms = Math.sqrt(sum2 / y.data.length);
    console.log(`wrote ${file}: ${name} dims [${y.dims}] max|y| ${amax.toPrecision(4)} rms ${rms.toPrecision(4)}`);
  });
}

main().catch((e) => {
  console.error('run_model.js:', e.message);
  process.exit(1);
});
