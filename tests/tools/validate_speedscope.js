// SPDX-License-Identifier: GPL-2.0-only
// validate_speedscope.js FILE SCHEMA TOTAL - validate a speedscope file
// against the file-format schema shipped by the speedscope npm package (with
// ajv), then check what the schema cannot: every frame index exists, one
// weight per sample, and the weights add up to TOTAL samples.
'use strict';
const fs = require('fs');
const Ajv = require('ajv');

const [file, schemaPath, total] = process.argv.slice(2);
const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
const schema = JSON.parse(fs.readFileSync(schemaPath, 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: false });
const validate = ajv.compile(schema.definitions ? { ...schema, $ref: '#/definitions/FileFormat.File' } : schema);
if (!validate(doc)) {
    console.error(JSON.stringify(validate.errors, null, 2));
    process.exit(1);
}
let sum = 0;
for (const p of doc.profiles) {
    if (p.samples.length !== p.weights.length)
        throw new Error(`${p.name}: ${p.samples.length} samples, ${p.weights.length} weights`);
    for (const s of p.samples)
        for (const i of s)
            if (!Number.isInteger(i) || i < 0 || i >= doc.shared.frames.length)
                throw new Error(`${p.name}: frame index ${i} out of range`);
    const w = p.weights.reduce((a, b) => a + b, 0);
    if (w !== p.endValue - p.startValue)
        throw new Error(`${p.name}: weights ${w} != endValue ${p.endValue}`);
    sum += w;
}
if (sum !== Number(total))
    throw new Error(`weights add up to ${sum}, expected ${total}`);
console.log(`valid: ${doc.profiles.length} profile(s), ${doc.shared.frames.length} frames, ${sum} samples`);
