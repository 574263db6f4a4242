// Records the raw stdio traffic between a peer and a child process, byte for byte, without
// taking part in the protocol: `node peers/lib/tee.mjs TRANSCRIPT LABEL -- COMMAND [ARGS...]`
// starts COMMAND with piped stdin and stdout (stderr inherited), copies this process's stdin to
// the child's stdin and the child's stdout to this process's stdout unchanged, and writes every
// line of either direction to TRANSCRIPT (NDJSON): `{"from": "client", "message": <the line>}`
// for a line from this process's stdin, `{"from": LABEL, "message": <the line>}` for a line from
// the child, where <the line> is spliced in as its exact bytes; a line that is not JSON is
// `{"from": ..., "text": "<the line>"}`. Exits with the child's exit code.
//
// Used to record fixtures from real peers (peers/record/) with nothing of this project's Rust
// code on the path; `toolcall tap` does the same job with checking.
import { spawn } from "node:child_process";
import { openSync, writeSync, closeSync } from "node:fs";
import { constants } from "node:os";

const separator = process.argv.indexOf("--");
const [transcriptPath, peerLabel] = process.argv.slice(2, separator);
const [command, ...args] = process.argv.slice(separator + 1);
if (separator < 0 || !transcriptPath || !peerLabel || !command) {
  console.error("usage: node peers/lib/tee.mjs TRANSCRIPT LABEL -- COMMAND [ARGS...]");
  process.exit(2);
}

const transcript = openSync(transcriptPath, "w");

/** Splits a byte stream into lines and writes each as one transcript record. */
function lineRecorder(from) {
  let pending = Buffer.alloc(0);
  const record = (line) => {
    if (line.length > 0 && line[line.length - 1] === 0x0d) line = line.subarray(0, -1);
    if (line.length === 0) return;
    const text = line.toString("utf8");
    let isJson = true;
    try {
      JSON.parse(text);
    } catch {
      isJson = false;
    }
    const head = `{"from":${JSON.stringify(from)},`;
    const body = isJson ? `"message":${text}}` : `"text":${JSON.stringify(text)}}`;
    writeSync(transcript, head + body + "\n");
  };
  return {
    push(chunk) {
      let data = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      let newline;
      while ((newline = data.indexOf(0x0a)) >= 0) {
        record(data.subarray(0, newline));
        data = data.subarray(newline + 1);
      }
      pending = Buffer.from(data);
    },
    end() {
      record(pending);
      pending = Buffer.alloc(0);
    },
  };
}

const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
const fromClient = lineRecorder("client");
const fromPeer = lineRecorder(peerLabel);

process.stdin.on("data", (chunk) => {
  child.stdin.write(chunk);
  fromClient.push(chunk);
});
process.stdin.on("end", () => {
  fromClient.end();
  child.stdin.end();
});
child.stdin.on("error", () => {});
child.stdout.on("data", (chunk) => {
  process.stdout.write(chunk);
  fromPeer.push(chunk);
});
child.stdout.on("end", () => fromPeer.end());
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("close", (code, signal) => {
  fromPeer.end();
  closeSync(transcript);
  process.exitCode = code ?? 128 + (constants.signals[signal] ?? 0);
  process.stdin.destroy();
});
