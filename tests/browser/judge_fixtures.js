/* judge_fixtures.js - what the browser tests compare the viewer with, all from the judge:
 * matches recorded by `judge run`, pages by `judge view`, lines by `judge replay dump`,
 * each player's prompt by `judge replay prompts`, the engine's own log by `judge replay export`. */
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const os = require("node:os");
const { execFileSync, spawnSync } = require("node:child_process");

const ROOT = path.resolve(__dirname, "../..");
const JUDGE = process.env.JUDGE || path.join(ROOT, "bin/judge");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

function judge(args, opts) {
    return execFileSync(JUDGE, args, {encoding: "utf8", maxBuffer: 1 << 28, ...opts});
}

/* Why the tests cannot run here, or null. */
function missing() {
    if (!fs.existsSync(CHROMIUM)) return "chromium missing (" + CHROMIUM + "; make deps installs it)";
    if (!fs.existsSync(JUDGE)) return "no judge binary at " + JUDGE + " (run make)";
    try { require.resolve("playwright-core"); } catch (e) { return "playwright-core missing (make deps runs npm ci)"; }
    return null;
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "judge-viewer-"));

/* Records tests/browser/matches/NAME.yaml; returns what the tests need of it, or {skip}. */
function record(name) {
    const replay = path.join(tmp, name + ".jsonl.gz");
    const run = spawnSync(JUDGE, ["run", path.join(__dirname, "matches", name + ".yaml"), "--replay", replay], {encoding: "utf8"});
    if (run.status === 2 && /unknown game/.test(run.stderr))
        return {skip: "this judge has no " + name + " game"};
    if (run.status !== 0 || !fs.existsSync(replay))
        return {skip: "judge run " + name + " failed here: " + (run.stderr || run.stdout).trim().split("\n").pop()};
    const page = judge(["view", replay, "--out", path.join(tmp, name + ".html")]).trim();
    const lines = judge(["replay", "dump", replay]).trim().split("\n").map((l) => JSON.parse(l));
    const prompts = judge(["replay", "prompts", replay]).trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
    return {name, replay, page, url: "file://" + page, lines, prompts, header: lines[0], result: lines[lines.length - 1]};
}

function exportLog(fx, format) {
    return judge(["replay", "export", "--format", format, fx.replay]);
}

/* The recorded lines up to the state after `n` inputs (replies and judge-found violations):
 * everything before input n + 1. */
function linesAfterInputs(fx, n) {
    const out = [];
    let inputs = 0;
    for (const l of fx.lines.slice(1)) {
        const isInput = l.type === "reply" || (l.type === "violation" && l.by === "judge");
        if (isInput && inputs === n) break;
        if (isInput) inputs++;
        out.push(l);
    }
    return out;
}

/* A page whose replay is damaged in the given way; returns its file URL. */
function damagedPage(fx, kind) {
    const gz = fs.readFileSync(fx.replay);
    const file = path.join(tmp, fx.name + "-" + kind + ".jsonl.gz");
    if (kind === "truncated") fs.writeFileSync(file, gz.subarray(0, Math.floor(gz.length / 2)));
    else if (kind === "garbage") fs.writeFileSync(file, Buffer.from("this is not a replay\n"));
    else if (kind === "version") {
        const zlib = require("node:zlib");
        const text = zlib.gunzipSync(gz).toString("utf8").replace('"version":1,', '"version":99,');
        fs.writeFileSync(file, zlib.gzipSync(text));
    } else if (kind === "no-result") {
        const zlib = require("node:zlib");
        const lines = zlib.gunzipSync(gz).toString("utf8").trim().split("\n");
        fs.writeFileSync(file, zlib.gzipSync(lines.slice(0, -1).join("\n") + "\n"));
    }
    return "file://" + judge(["view", file, "--out", file.replace(/\.jsonl\.gz$/, ".html")]).trim();
}

module.exports = {ROOT, JUDGE, CHROMIUM, judge, missing, record, exportLog, linesAfterInputs, damagedPage, tmp};
