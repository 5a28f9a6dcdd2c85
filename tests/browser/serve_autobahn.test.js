/* serve_autobahn.test.js - `judge serve seabattle` with the real browser WAMP client, npm's
 * autobahn-browser, in headless Debian chromium (playwright-core): two pages of another site
 * (so the WebSocket carries a foreign Origin and offers wamp.2.json and wamp.2.msgpack, as
 * autobahn does) each join with `new-game` and shoot until the game ends (docs/network.md);
 * the result is player 1's, and `get-game-log` equals the export of the replay the server
 * wrote. Run by `node --test` in tests/browser (JUDGE = the judge binary). */
"use strict";
const test = require("node:test");
const assert = require("node:assert");
const fs = require("node:fs");
const http = require("node:http");
const os = require("node:os");
const path = require("node:path");
const { spawn } = require("node:child_process");
const { JUDGE, CHROMIUM, judge, missing } = require("./judge_fixtures");

const ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
              "--disable-sync", "--no-first-run"];
const REALM = "contest";
const BOARD = ["####______", "__________", "###_###___", "__________", "##_##_##__",
               "__________", "#_#_#_#___", "__________", "__________", "__________"];

function autobahnScript() {
    try { return require.resolve("autobahn-browser/autobahn.min.js"); } catch (e) { return null; }
}

function skipReason() {
    return missing() || (!autobahnScript() && "autobahn-browser missing (make deps runs npm ci)");
}

function startServer(dir) {
    const proc = spawn(JUDGE, ["serve", "seabattle", "--listen", "127.0.0.1:0", "--replays", path.join(dir, "replays"),
                               "--realm", REALM], {stdio: ["ignore", "pipe", "pipe"]});
    return new Promise((resolve, reject) => {
        let out = "";
        proc.stdout.on("data", (d) => {
            out += d;
            const m = out.match(/ws:\/\/127\.0\.0\.1:(\d+)\/ws/);
            if (m) resolve({proc, port: Number(m[1]), output: () => out});
        });
        proc.on("exit", (code) => reject(new Error("judge serve exited " + code + ": " + out)));
    });
}

/* A blank page of a site other than the judge's, as a player's own page would be. */
function startSite() {
    const site = http.createServer((req, res) => {
        res.writeHead(200, {"content-type": "text/html"});
        res.end("<!doctype html><title>player</title>");
    });
    return new Promise((resolve) => site.listen(0, "127.0.0.1", () => resolve(site)));
}

/* In the page: open an autobahn.Connection and keep its session as window.session. */
function connect({url, realm}) {
    return new Promise((resolve, reject) => {
        const connection = new autobahn.Connection({url, realm, max_retries: 0, retry_if_unreachable: false});
        connection.onopen = (session) => {
            window.connection = connection;
            window.session = session;
            resolve(connection.transport.info.protocol);
        };
        connection.onclose = (reason, details) => {
            reject(new Error("connection closed: " + reason + " " + JSON.stringify(details)));
            return true;
        };
        connection.open();
    });
}

/* In the page: shoot every cell in turn until the game is over; the statuses in order. */
async function playToTheEnd(gameId) {
    const statuses = [];
    for (let i = 0; i < 100; i++) {
        const status = await window.session.call("shoot", [gameId, i % 10 + 1, Math.floor(i / 10) + 1]);
        statuses.push(status);
        if (status === "game-over") break;
    }
    return statuses;
}

/* In the page: a call's result, or the error's URI and arguments. */
async function call([procedure, args]) {
    try { return {result: await window.session.call(procedure, args)}; }
    catch (e) { return {error: e.error, args: e.args}; }
}

/* A server, a site for the pages, chromium, and two pages each with an autobahn session;
 * body(ctx) with {dir, browser, pages, protocols}; everything closed after, whatever happens. */
async function withTwoSessions(body) {
    const { chromium } = require("playwright-core");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "judge-serve-autobahn-"));
    const server = await startServer(dir);
    const site = await startSite();
    const browser = await chromium.launch({executablePath: CHROMIUM, headless: true, args: ARGS});
    try {
        const url = `ws://127.0.0.1:${server.port}/ws`;
        const pages = [], protocols = [];
        for (let i = 0; i < 2; i++) {
            const page = await browser.newPage();
            page.errors = [];
            page.on("console", (m) => { if (m.type() === "error") page.errors.push(m.text()); });
            page.on("pageerror", (e) => page.errors.push(String(e)));
            await page.goto(`http://127.0.0.1:${site.address().port}/`);
            await page.addScriptTag({path: autobahnScript()});
            protocols.push(await page.evaluate(connect, {url, realm: REALM}));
            pages.push(page);
        }
        await body({dir, browser, pages, protocols});
    } finally {
        await browser.close();
        site.close();
        server.proc.kill("SIGTERM");
        fs.rmSync(dir, {recursive: true, force: true});
    }
}

test("autobahn-browser in chromium plays a whole game between two sessions",
     {skip: skipReason(), timeout: 240000}, () => withTwoSessions(async ({dir, pages, protocols}) => {
        for (const protocol of protocols)
            assert.strictEqual(protocol, "wamp.2.json", "the server chose JSON among autobahn's offers");
        const [alice, bob] = pages;
        const bad = await alice.evaluate(call, ["new-game", ["alice", [BOARD[0], "#_________", ...BOARD.slice(2)]]]);
        assert.strictEqual(bad.error, "seabattle.error.invalid_board", "a bad board is refused through autobahn");
        assert.match(String(bad.args[0]), /\(S\d+[a-z]?\)/, "the refusal names the broken rule");
        const game = (await alice.evaluate(call, ["new-game", ["alice", BOARD]])).result;
        assert.ok(Number.isInteger(game), "a game-id: " + game);
        assert.deepStrictEqual((await bob.evaluate(call, ["new-game", ["bob", BOARD]])).result, game,
                               "the second player joins the waiting game");
        const hidden = await bob.evaluate(call, ["get-game-log", [game]]);
        assert.strictEqual(hidden.error, "seabattle.error.not_over", "no log during the game");

        const [aliceShots, bobShots] = await Promise.all([alice.evaluate(playToTheEnd, game), bob.evaluate(playToTheEnd, game)]);
        /* Same boards, same order: player 1 is always ahead, so it sinks the last ship first. */
        assert.strictEqual(aliceShots[aliceShots.length - 2], "sunk", "alice's last shot sinks bob's fleet");
        assert.strictEqual(aliceShots[aliceShots.length - 1], "game-over");
        assert.strictEqual(bobShots[bobShots.length - 1], "game-over");
        assert.ok(!bobShots.slice(0, -1).includes("game-over"), "bob's shots end once, at the end");

        const info = (await bob.evaluate(call, ["get-game-info", [game]])).result;
        assert.deepStrictEqual(info, ["player1-win", "alice", "bob", BOARD, BOARD]);
        const log = (await alice.evaluate(call, ["get-game-log", [game]])).result;
        assert.deepStrictEqual((await bob.evaluate(call, ["get-game-log", [game]])).result, log, "both see one log");
        assert.match(log, /^1 \d+ \d+ (miss|hit|sunk)$/m);
        assert.deepStrictEqual((await alice.evaluate(call, ["get-games", []])).result, [game]);

        for (const page of pages) await page.evaluate(() => window.connection.close());
        const replay = path.join(dir, "replays", `game-${game}.jsonl.gz`);
        judge(["replay", "verify", replay]);
        assert.strictEqual(judge(["replay", "export", "--format", "seabattle-log", replay]), log,
                           "get-game-log equals the export of the written replay");
        for (const page of pages) assert.deepStrictEqual(page.errors, []);
}));

/* An invalid shot through autobahn ("3" for x) is a reply of the replay, as the client wrote it,
 * which the engine refuses; the viewer shows it as what the player sent. */
test("an invalid shot is the replay's reply and the viewer shows what was sent",
     {skip: skipReason(), timeout: 240000}, () => withTwoSessions(async ({dir, browser, pages}) => {
        const [alice, bob] = pages;
        const game = (await alice.evaluate(call, ["new-game", ["alice", BOARD]])).result;
        await bob.evaluate(call, ["new-game", ["bob", BOARD]]);
        assert.strictEqual((await alice.evaluate(call, ["shoot", [game, "3", 1]])).result, "game-over");
        for (const page of pages) await page.evaluate(() => window.connection.close());

        const replay = path.join(dir, "replays", `game-${game}.jsonl.gz`);
        judge(["replay", "verify", replay]);
        const lines = judge(["replay", "dump", replay]).trim().split("\n").map((l) => JSON.parse(l));
        const shot = lines.filter((l) => l.type === "reply" && l.round === 1);
        assert.deepStrictEqual(shot.map((l) => [l.player, l.line]), [[1, '"3" 1']], "the shot is a reply as sent");
        const html = judge(["view", replay, "--out", path.join(dir, "game.html")]).trim();
        const page = await browser.newPage();
        await page.goto("file://" + html + "#turn=end");
        await page.waitForFunction(() => document.body.dataset.state === "ready", null, {timeout: 20000});
        const shown = (await page.evaluate(() => window.__viewer.violations())).join("\n");
        assert.match(shown, /INVALID_OUTPUT/);
        assert.match(shown, /the bot sent"3" 1/, "the viewer shows the shot as sent: " + shown);
}));
