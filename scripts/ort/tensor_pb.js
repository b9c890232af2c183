// ONNX TensorProto files (input_K.pb / output_K.pb of a test_data_set folder) read and written
// without a protobuf library: the few fields a dense tensor uses, in protobuf's wire format.
//   1 dims (int64, packed or not)   2 data_type (1 = FLOAT, 7 = INT64)   8 name
//   4 float_data (packed)           7 int64_data (packed)                9 raw_data (little-endian)
'use strict';

function readVarint(buf, pos) {
  let v = 0n, shift = 0n;
  for (;;) {
    if (pos >= buf.length) throw new Error('truncated varint');
    const b = buf[pos++];
    v |= BigInt(b & 0x7f) << shift;
    shift += 7n;
    if (!(b & 0x80)) return [v, pos];
  }
}

function decodeTensor(buf) {
  const t = { name: '', dims: [], dataType: 0, floatData: [], int64Data: [], raw: null };
  let pos = 0;
  while (pos < buf.length) {
    let key;
    [key, pos] = readVarint(buf, pos);
    const field = Number(key >> 3n), wire = Number(key & 7n);
    if (wire === 0) {
      let v;
      [v, pos] = readVarint(buf, pos);
      if (field === 1) t.dims.push(Number(BigInt.asIntN(64, v)));
      else if (field === 2) t.dataType = Number(v);
      else if (field === 7) t.int64Data.push(Number(BigInt.asIntN(64, v)));
    } else if (wire === 2) {
      let len;
      [len, pos] = readVarint(buf, pos);
      const body = buf.subarray(pos, pos + Number(len));
      if (body.length !== Number(len)) throw new Error('truncated field ' + field);
      pos += Number(len);
      if (field === 1 || field === 7) {
        for (let p = 0; p < body.length;) {
          let v;
          [v, p] = readVarint(body, p);
          (field === 1 ? t.dims : t.int64Data).push(Number(BigInt.asIntN(64, v)));
        }
      } else if (field === 4) {
        for (let p = 0; p + 4 <= body.length; p += 4) t.floatData.push(body.readFloatLE(p));
      } else if (field === 8) {
        t.name = body.toString('utf8');
      } else if (field === 9) {
        t.raw = Buffer.from(body);
      }
    } else if (wire === 5) {
      if (field === 4) t.floatData.push(buf.readFloatLE(pos));
      pos += 4;
    } else if (wire === 1) {
      pos += 8;
    } else {
      throw new Error('unsupported wire type ' + wire);
    }
  }
  if (t.dataType !== 1) throw new Error('only FLOAT tensors are supported, data_type ' + t.dataType);
  const count = t.dims.reduce((a, b) => a * b, 1);
  let data;
  if (t.raw) {
    if (t.raw.length !== 4 * count) throw new Error('raw_data size does not match the dims');
    data = new Float32Array(count);
    for (let k = 0; k < count; ++k) data[k] = t.raw.readFloatLE(4 * k);
  } else {
    if (t.floatData.length !== count) throw new Error('float_data size does not match the dims');
    data = Float32Array.from(t.floatData);
  }
  return { name: t.name, dims: t.dims, data };
}

function varint(v) {
  const out = [];
  let x = BigInt.asUintN(64, BigInt(v));
  do {
    let b = Number(x & 0x7fn);
    x >>= 7n;
    if (x) b |= 0x80;
    out.push(b);
  } while (x);
  return Buffer.from(out);
}

function lengthDelimited(field, body) {
  return Buffer.concat([varint((field << 3) | 2), varint(body.length), body]);
}

// An f32 tensor as a TensorProto with raw_data (what onnx.numpy_helper writes).
function encodeTensor(name, dims, data) {
  const parts = dims.map((d) => Buffer.concat([varint(1 << 3), varint(d)]));
  parts.push(Buffer.concat([varint(2 << 3), varint(1)]));
  parts.push(lengthDelimited(8, Buffer.from(name, 'utf8')));
  const raw = Buffer.alloc(4 * data.length);
  for (let k = 0; k < data.length; ++k) raw.writeFloatLE(data[k], 4 * k);
  parts.push(lengthDelimited(9, raw));
  return Buffer.concat(parts);
}

module.exports = { decodeTensor, encodeTensor };
