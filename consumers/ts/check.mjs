// The TypeScript consumer of the published bundle (run by consumers/run.sh):
//
//   node consumers/ts/check.mjs BUNDLE_DIR VECTORS_DIR DIVERGENCES_JSON WORK_DIR
//
// 1. `ajv`: loads every bundle file into ajv/dist/2020 (strict mode, ajv-formats, the option
//    `discriminator: true`), nothing fetched, and checks every golden vector's verdict and
//    normalized error instance paths (tests/vectors/README.md).
// 2. `typescript`: generates TypeScript types from the bundle with json-schema-to-typescript
//    (one module per family under WORK_DIR/types/), writes every valid vector as a typed constant
//    (WORK_DIR/vectors.ts), copies sample.ts beside them, and type-checks all with `tsc --noEmit`.
//
// Prints `<consumer>: N passed, M failed` per consumer; exits 1 when a verdict differs from the
// expected one other than as consumers/divergences.json lists it (or a listed divergence did not
// happen), 2 on a setup error.

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { compile } from "json-schema-to-typescript";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CONSUMERS = ["ajv", "typescript"];

function fail(message) {
  console.error(`check.mjs: ${message}`);
  process.exit(2);
}

const [bundleDir, vectorsDir, divergencesPath, workDir] = process.argv.slice(2);
if (!workDir) fail("usage: check.mjs BUNDLE_DIR VECTORS_DIR DIVERGENCES_JSON WORK_DIR");

const readJson = (file) => JSON.parse(fs.readFileSync(file, "utf8"));
const index = readJson(path.join(bundleDir, "index.json"));

// ---------------------------------------------------------------------------------------------
// Vectors, divergences, tallies
// ---------------------------------------------------------------------------------------------

function loadVectors() {
  const vectors = [];
  for (const root of fs.readdirSync(vectorsDir).sort()) {
    const rootDir = path.join(vectorsDir, root);
    if (!fs.statSync(rootDir).isDirectory()) continue;
    for (const expected of ["valid", "invalid"]) {
      for (const name of fs.readdirSync(path.join(rootDir, expected)).sort()) {
        const doc = readJson(path.join(rootDir, expected, name));
        vectors.push({ id: `${root}/${expected}/${name}`, root, expected, ...doc });
      }
    }
  }
  return vectors;
}

function loadDivergences() {
  const map = new Map();
  for (const entry of readJson(divergencesPath).divergences) {
    map.set(`${entry.vector}\u0000${entry.consumer}`, entry);
  }
  return map;
}

const vectors = loadVectors();
const divergences = loadDivergences();
const used = new Set();

/** The shallowest paths of `paths` (a path under another one is dropped), sorted. */
function minimal(paths) {
  const unique = [...new Set(paths)];
  const under = (p, base) => (base === "" ? p !== "" : p.startsWith(base + "/"));
  return unique.filter((p) => !unique.some((o) => o !== p && under(p, o))).sort();
}

class Tally {
  constructor(consumer) {
    this.consumer = consumer;
    this.passed = 0;
    this.failed = [];
    this.divergent = 0;
  }

  /** Records the verdict (and paths, for `invalid`) of this consumer on `vector`. */
  check(vector, expectedVerdict, actual, paths, detail) {
    const key = `${vector.id}\u0000${this.consumer}`;
    let wantVerdict = expectedVerdict;
    let wantPaths = vector.errors;
    const entry = divergences.get(key);
    if (entry) {
      used.add(key);
      this.divergent += 1;
      wantVerdict = entry.verdict;
      wantPaths = entry.errors ?? vector.errors;
    }
    let problem = null;
    if (actual !== wantVerdict) {
      problem = `verdict \`${actual}\`, expected \`${wantVerdict}\``;
    } else if (actual === "invalid" && paths && wantPaths) {
      if (JSON.stringify(paths) !== JSON.stringify(wantPaths)) {
        problem = `error paths ${JSON.stringify(paths)}, expected ${JSON.stringify(wantPaths)}`;
      }
    }
    if (problem) this.failed.push(`${this.consumer} on ${vector.id}: ${problem} (${detail})`);
    else this.passed += 1;
  }

  report() {
    console.log(
      `${this.consumer}: ${this.passed} passed, ${this.failed.length} failed` +
        ` (${this.divergent} as listed divergences)`,
    );
    for (const line of this.failed) console.log(`  FAIL ${line}`);
  }
}

// ---------------------------------------------------------------------------------------------
// ajv
// ---------------------------------------------------------------------------------------------

function buildAjv() {
  const ajv = new Ajv2020({
    strict: true,
    allErrors: true,
    // The OpenAPI `discriminator` beside `oneOf`: ajv picks the branch by the tag.
    discriminator: true,
    // `"type": ["string", "integer"]` (route `progress_token`); strict mode refuses it otherwise.
    allowUnionTypes: true,
  });
  addFormats(ajv);
  for (const format of index.formats) {
    if (!ajv.formats[format]) fail(`ajv-formats does not check the format \`${format}\``);
  }
  // Annotations only (our decoder's leniency declarations, ACP's method table): strict mode
  // refuses unknown keywords, so they are declared as a vocabulary without validation.
  ajv.addVocabulary(index.extension_keywords.filter((k) => k !== "discriminator"));
  for (const file of index.files) {
    ajv.addSchema(readJson(path.join(bundleDir, file.path)));
  }
  return ajv;
}

function runAjv() {
  const tally = new Tally("ajv");
  const ajv = buildAjv();
  const validators = new Map();
  for (const root of index.root_types) {
    const validate = ajv.getSchema(root.$ref);
    if (!validate) fail(`ajv cannot find ${root.$ref}`);
    validators.set(root.name, validate);
  }
  for (const vector of vectors) {
    const validate = validators.get(vector.root);
    if (!validate) fail(`no root type \`${vector.root}\` in index.json`);
    const ok = validate(vector.instance);
    const errors = validate.errors ?? [];
    const paths = minimal(errors.map((e) => e.instancePath));
    const detail = errors
      .slice(0, 6)
      .map((e) => `${e.instancePath || "(root)"} ${e.message}`)
      .join("; ");
    tally.check(vector, vector.expected, ok ? "valid" : "invalid", paths, detail);
  }
  return tally;
}

// ---------------------------------------------------------------------------------------------
// json-schema-to-typescript and tsc
// ---------------------------------------------------------------------------------------------

/**
 * One schema per family whose `$defs` are every `$defs` of the family's files, cross-file refs
 * rewritten to local ones. json-schema-to-typescript resolves relative refs against the file
 * path rather than `$id`, and fails on a referenced file whose root is a `$ref` with siblings;
 * merging first avoids both (see consumers/DIVERGENCES.md).
 */
function familySchema(family) {
  const files = index.files.filter((f) => f.family === family);
  const defs = {};
  let title = `${family} contracts`;
  let anyOf;
  for (const file of files) {
    const schema = JSON.parse(fs.readFileSync(path.join(bundleDir, file.path), "utf8"), (key, value) =>
      key === "$ref" && typeof value === "string" ? `#${value.split("#")[1] ?? ""}` : value,
    );
    for (const [name, def] of Object.entries(schema.$defs ?? {})) {
      if (name in defs) fail(`two ${family} files define \`${name}\``);
      defs[name] = def;
    }
    if (files.length === 1 && schema.anyOf) {
      title = schema.title;
      anyOf = schema.anyOf;
    }
  }
  return { title, ...(anyOf ? { anyOf } : {}), $defs: defs };
}

async function generateTypes(typesDir) {
  fs.mkdirSync(typesDir, { recursive: true });
  const failures = [];
  const families = [...new Set(index.files.map((f) => f.family))];
  for (const family of families) {
    const started = Date.now();
    try {
      const ts = await compile(familySchema(family), family, {
        bannerComment: `// @generated by consumers/ts/check.mjs (json-schema-to-typescript) from the ${family} files of the bundle`,
        unreachableDefinitions: true,
        additionalProperties: true,
        format: false,
        // Every ref is local after merging; nothing is read from disk or the network.
        $refOptions: { resolve: { http: false, file: false } },
      });
      fs.writeFileSync(path.join(typesDir, `${family}.ts`), ts);
      console.log(`  types/${family}.ts: ${ts.split("\n").length} lines in ${Date.now() - started} ms`);
    } catch (error) {
      failures.push(`json-schema-to-typescript on ${family}: ${String(error.message).slice(0, 300)}`);
    }
  }
  return failures;
}

/** `vectors.ts`: one typed constant per valid vector; returns the line range of each. */
function writeVectorsModule(file) {
  const families = [...new Set(index.root_types.map((r) => r.name.split(".")[0]))];
  const lines = [
    "// @generated by consumers/ts/check.mjs: every valid golden vector as a typed constant.",
    ...families.map((f) => `import type * as ${f} from "./types/${f}";`),
    "",
  ];
  const ranges = [];
  vectors
    .filter((v) => v.expected === "valid")
    .forEach((vector, n) => {
      const first = lines.length + 1;
      lines.push(`// ${vector.id}`);
      lines.push(`export const v${n}: ${vector.root} = ${JSON.stringify(vector.instance, null, 2)};`);
      const body = lines.pop().split("\n");
      lines.push(...body, "");
      ranges.push({ vector, first, last: lines.length });
    });
  fs.writeFileSync(file, lines.join("\n"));
  return ranges;
}

function runTsc(tsDir) {
  const tsc = path.join(HERE, "node_modules", "typescript", "bin", "tsc");
  try {
    execFileSync(process.execPath, [tsc, "-p", path.join(tsDir, "tsconfig.json"), "--pretty", "false"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    return [];
  } catch (error) {
    if (error.status === undefined || error.status === null) throw error;
    return `${error.stdout}${error.stderr}`.split("\n").filter((l) => l.includes("error TS"));
  }
}

async function runTypescript() {
  const tally = new Tally("typescript");
  const tsDir = path.join(workDir, "ts");
  const setup = await generateTypes(path.join(tsDir, "types"));
  const ranges = writeVectorsModule(path.join(tsDir, "vectors.ts"));
  fs.copyFileSync(path.join(HERE, "sample.ts"), path.join(tsDir, "sample.ts"));
  fs.writeFileSync(
    path.join(tsDir, "tsconfig.json"),
    JSON.stringify(
      {
        compilerOptions: {
          target: "es2022",
          module: "esnext",
          moduleResolution: "bundler",
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        files: ["sample.ts", "vectors.ts"],
      },
      null,
      2,
    ),
  );
  const errors = setup.length === 0 ? runTsc(tsDir) : [];
  const vectorErrors = new Map();
  for (const line of errors) {
    const match = /^(?:.*[\\/])?vectors\.ts\((\d+),\d+\): (.*)$/.exec(line);
    const range = match && ranges.find((r) => r.first <= Number(match[1]) && Number(match[1]) <= r.last);
    if (range) {
      const list = vectorErrors.get(range.vector.id) ?? [];
      list.push(match[2]);
      vectorErrors.set(range.vector.id, list);
    } else {
      setup.push(`tsc: ${line}`);
    }
  }
  for (const { vector } of ranges) {
    const found = vectorErrors.get(vector.id);
    tally.check(vector, "valid", found ? "invalid" : "valid", null, (found ?? []).join("; ").slice(0, 400));
  }
  return { tally, setup };
}

// ---------------------------------------------------------------------------------------------

const started = Date.now();
const ajvTally = runAjv();
ajvTally.report();
const { tally: tsTally, setup } = await runTypescript();
tsTally.report();
for (const line of setup) console.log(`  FAIL ${line}`);

const unused = [...divergences.entries()]
  .filter(([key, entry]) => CONSUMERS.includes(entry.consumer) && !used.has(key))
  .map(([, entry]) => `${entry.consumer} on ${entry.vector}`);
for (const line of unused) console.log(`  FAIL listed divergence never checked: ${line}`);
console.log(`TypeScript consumers done in ${((Date.now() - started) / 1000).toFixed(1)} s`);

const failed = ajvTally.failed.length + tsTally.failed.length + setup.length + unused.length;
process.exit(failed > 0 ? 1 : 0);
