// ONNX Runtime's CPU provider as prim's test-time competitor: one session the way both scripts
// want it (graph optimisations on, a given number of intra-op threads).
'use strict';
const ort = require('onnxruntime-node');

function createSession(model, threads) {
  return ort.InferenceSession.create(model, {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
  });
}

module.exports = { ort, createSession };
