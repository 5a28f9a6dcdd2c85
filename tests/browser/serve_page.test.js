/* serve_page.test.js - the human page of `judge serve seabattle` in headless Debian chromium
 * (playwright-core): place a random fleet, join, play a whole game against the house bot by
 * clicking the opponent's board, see the result, the revealed board and the log; the game's
 * replay verifies. Run by `node --test` in tests/browser (JUDGE = the judge binary). */
"use strict";
const test = require("node:test");
const assert = require("node:assert");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { spawn, execFileSync } = require("node:child_process");

const ROOT = path.resolve(__dirname, "..", "..");
const JUDGE = process.env.JUDGE || path.join(ROOT, "bin", "judge");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
              "--disable-sync", "--no-first-run"];

function startServer(dir) {
    const proc = spawn(JUDGE, ["serve", "seabattle", "--listen", "127.0.0.1:0", "--replays", path.join(dir, "replays"),
                               "--house-bot", path.join(ROOT, "examples", "house", "hunter.yaml"), "--house-wait-ms", "500"],
                       {stdio: ["ignore", "pipe", "pipe"]});
    return new Promise((resolve, reject) => {
        let out = "";
        proc.stdout.on("data", (d) => {
            out += d;
            const m = out.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
            if (m) resolve({proc, port: Number(m[1]), output: () => out});
        });
        proc.on("exit", (code) => reject(new Error("judge serve exited " + code)));
    });
}

test("the human page plays a whole game against the house bot by clicking",
     {skip: !fs.existsSync(CHROMIUM) && "no " + CHROMIUM, timeout: 240000}, async () => {
    const { chromium } = require("playwright-core");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "judge-serve-page-"));
    const server = await startServer(dir);
    const browser = await chromium.launch({executablePath: CHROMIUM, headless: true, args: ARGS});
    try {
        const page = await browser.newPage();
        const errors = [];
        page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
        page.on("pageerror", (e) => errors.push(String(e)));
        await page.goto(`http://127.0.0.1:${server.port}/`);
        await page.waitForFunction(() => document.body.dataset.state === "ready");
        await page.fill("#player", "browser-human");
        await page.click("#random");
        const ships = await page.locator("#own .cell.ship").count();
        assert.strictEqual(ships, 20, "a random fleet of 20 ship cells");
        await page.click("#join");
        await page.waitForFunction(() => document.body.dataset.state === "playing", null, {timeout: 30000});
        assert.match(await page.textContent("#opponent"), /house-hunter/);
        /* Click every cell of the opponent's board in turn (bounded: 100 cells) until the game ends. */
        for (let i = 0; i < 100; i++) {
            if (await page.evaluate(() => document.body.dataset.state) === "over") break;
            const cell = page.locator(`#enemy .cell[data-x="${i % 10 + 1}"][data-y="${Math.floor(i / 10) + 1}"]`);
            await cell.click();
            await page.waitForFunction((n) => {
                const c = document.querySelectorAll("#enemy .cell")[n];
                return c.dataset.result || document.body.dataset.state === "over";
            }, i, {timeout: 30000});
        }
        await page.waitForFunction(() => document.body.dataset.state === "over", null, {timeout: 30000});
        const result = await page.evaluate(() => document.body.dataset.result);
        assert.ok(["player1-win", "player2-win", "draw"].includes(result), "a result: " + result);
        assert.match(await page.textContent("#status"), /You won|You lost|draw/);
        const marks = await page.locator("#enemy .cell.miss, #enemy .cell.hit, #enemy .cell.sunk").count();
        assert.ok(marks > 0, "shots are drawn on the opponent's board");
        assert.strictEqual(await page.locator("#enemy .cell.ship, #enemy .cell.sunk").count() >= 20, true,
                           "the opponent's board is shown at the end");
        const log = await page.textContent("#log");
        assert.match(log, /^1 \d+ \d+ (miss|hit|sunk)$/m, "the game's log is shown");
        assert.strictEqual(await page.getAttribute("#replay-link", "href"), "/replays/game-1.jsonl.gz",
                           "the page links to the game's replay");
        assert.deepStrictEqual(errors, []);
        const replay = path.join(dir, "replays", "game-1.jsonl.gz");
        execFileSync(JUDGE, ["replay", "verify", replay]);
        const exported = execFileSync(JUDGE, ["replay", "export", "--format", "seabattle-log", replay]).toString();
        assert.strictEqual(exported, log, "the page shows the game's log, equal to the replay's export");
        const served = await (await fetch(`http://127.0.0.1:${server.port}/replays/game-1.jsonl.gz`)).arrayBuffer();
        assert.deepStrictEqual(Buffer.from(served), fs.readFileSync(replay), "the linked replay is the file");
        for (const bad of ["/replays/../serve.h", "/replays/game-1.jsonl.gz.tmp", "/replays/game-x.jsonl.gz"])
            assert.strictEqual((await fetch(`http://127.0.0.1:${server.port}${bad}`)).status, 404, bad);
    } finally {
        await browser.close();
        server.proc.kill("SIGTERM");
        fs.rmSync(dir, {recursive: true, force: true});
    }
});
