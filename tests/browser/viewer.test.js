/* viewer.test.js - the replay viewer (viewer/) in a real headless chromium, page by page as a
 * user opens it from file://: what it draws at a turn (its data model, window.__viewer.state())
 * must equal what the engine had at that turn, taken from the judge itself: each player's
 * prompt (`judge replay prompts`) and the game's own log (`judge replay export`). */
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const fx = require("./judge_fixtures");
const { launch } = require("./browser");

const why = fx.missing();
const SHOTS = process.env.VIEWER_SCREENSHOTS;   /* a directory: save one screenshot per game there */

let browser;
const matches = {};

async function goTurn(page, f) {
    await page.evaluate((t) => { location.hash = "#turn=" + t; }, f);
    try {
        await page.waitForFunction((t) => window.__viewer.turn() === t, f, {timeout: 5000});
    } catch (e) {
        throw new Error("turn " + f + " not shown: " + JSON.stringify(await page.evaluate(() => [location.hash, window.__viewer.turn && window.__viewer.turn(), document.body.dataset.state, window.__viewer.error])));
    }
}

async function key(page, k, want) {
    await page.keyboard.press(k);
    await page.waitForFunction((t) => window.__viewer.turn() === t, want, {timeout: 5000});
}

/* The frame whose state is the one before input n (the frame before the one holding it). */
function frameBefore(frames, n) {
    for (let f = 0; f < frames.length; f++)
        if (frames[f].inputs > 0 && frames[f].n - frames[f].inputs < n && n <= frames[f].n) return f - 1;
    return -1;
}

function sample(list, count) {
    if (list.length <= count) return list.slice();
    const out = [];
    for (let i = 0; i < count; i++) out.push(list[Math.round(i * (list.length - 1) / (count - 1))]);
    return out;
}

/* A generals prompt (generals.md §5): "1", k lines "army cells", then one line per cell. */
function generalsPrompt(text, k) {
    const lines = text.trim().split("\n");
    return {stats: lines.slice(1, 1 + k), cells: lines.slice(1 + k)};
}

function generalsDrawn(model) {
    return {stats: model.players.map((p) => p.army + " " + p.land), cells: model.cells.map((c) => c.join(" "))};
}

async function noErrors(page) {
    assert.deepEqual(page.errors, [], "console errors on " + page.url());
}

async function screenshot(page, name) {
    if (!SHOTS) return;
    fs.mkdirSync(SHOTS, {recursive: true});
    await page.screenshot({path: path.join(SHOTS, "viewer-" + name + ".png"), fullPage: true});
}

test.describe("viewer", {skip: why ? why : false}, () => {
    test.before(async () => {
        browser = await launch();
    });
    test.after(async () => {
        if (browser) await browser.close();
        fs.rmSync(fx.tmp, {recursive: true, force: true});
    });

    function fixture(t, name) {
        if (!matches[name]) matches[name] = fx.record(name);
        if (matches[name].skip) t.skip(matches[name].skip);
        return matches[name].skip ? null : matches[name];
    }

    test("generals: the board at a turn, by URL and by keys, is the engine's", async (t) => {
        const m = fixture(t, "generals-clear");
        if (!m) return;
        const k = m.header.players.length;
        const page = await browser.open(m.url + "#turn=0");
        const frames = await page.evaluate(() => window.__viewer.frames());
        const wanted = sample(m.prompts.filter((p) => frameBefore(frames, p.input) >= 0), 12);
        assert.ok(wanted.length >= 10);
        for (const p of wanted) {
            const f = frameBefore(frames, p.input);
            await goTurn(page, f);
            await page.waitForFunction((h) => location.hash === h, "#turn=" + f);
            const drawn = generalsDrawn(await page.evaluate(() => window.__viewer.state()));
            assert.deepEqual(drawn, generalsPrompt(p.prompt, k), "turn " + f + " (before input " + p.input + ")");
        }
        /* By keys: Home, then → three times, each step the engine's state and the URL following. */
        await key(page, "Home", 0);
        const byPrompt = new Map(m.prompts.map((p) => [frameBefore(frames, p.input), p]));
        for (let f = 1; f <= 3; f++) {
            await key(page, "ArrowRight", f);
            /* The URL follows (at most four times a second: browsers throttle history writes). */
            await page.waitForFunction((h) => location.hash === h, "#turn=" + f);
            if (byPrompt.has(f))
                assert.deepEqual(generalsDrawn(await page.evaluate(() => window.__viewer.state())), generalsPrompt(byPrompt.get(f).prompt, k));
        }
        await key(page, "ArrowLeft", 2);
        const last = await page.evaluate(() => window.__viewer.last());
        await key(page, "End", last);
        assert.equal(last, frames.length - 1);
        await noErrors(page);
        await page.close();
    });

    test("generals: #turn=end is the last frame of the engine's log", async (t) => {
        const m = fixture(t, "generals-clear");
        if (!m) return;
        const k = m.header.players.length;
        const log = fx.exportLog(m, "generals-log").trim().split("\n");
        const [n, cols] = log[0].split(" ").map(Number);
        const size = 1 + k + n * cols, frames = (log.length - 2) / size;
        assert.ok(Number.isInteger(frames) && frames > 0, "log frames");
        const lastFrame = log.slice(1 + (frames - 1) * size, 1 + frames * size);
        const page = await browser.open(m.url + "#turn=end");
        assert.equal(await page.evaluate(() => window.__viewer.turn()), await page.evaluate(() => window.__viewer.last()));
        const drawn = generalsDrawn(await page.evaluate(() => window.__viewer.state()));
        assert.deepEqual(drawn, {stats: lastFrame.slice(1, 1 + k), cells: lastFrame.slice(1 + k)});
        await screenshot(page, "generals");
        await noErrors(page);
        await page.close();
    });

    test("generals: each player's fog view is exactly what that player was sent", async (t) => {
        const m = fixture(t, "generals-fog");
        if (!m) return;
        const k = m.header.players.length;
        const page = await browser.open(m.url);
        const frames = await page.evaluate(() => window.__viewer.frames());
        for (let p = 1; p <= k; p++) {
            const mine = sample(m.prompts.filter((x) => x.player === p && frameBefore(frames, x.input) >= 0), 5);
            assert.ok(mine.length >= 1, "prompts of player " + p);
            for (const pr of mine) {
                await goTurn(page, frameBefore(frames, pr.input));
                if ((await page.evaluate(() => window.__viewer.view().fog)) !== p)
                    await page.click(".jv-leaderboard tr[data-player='" + p + "']");
                assert.equal(await page.evaluate(() => window.__viewer.view().fog), p);
                const drawn = generalsDrawn(await page.evaluate(() => window.__viewer.state()));
                assert.deepEqual(drawn, generalsPrompt(pr.prompt, k), "player " + p + " before input " + pr.input);
            }
        }
        await goTurn(page, Math.floor(frames.length / 2));
        if ((await page.evaluate(() => window.__viewer.view().fog)) !== 1) await page.click(".jv-leaderboard tr[data-player='1']");
        await screenshot(page, "generals-fog");
        /* Clicking the selected row again shows everything. */
        await page.click(".jv-leaderboard tr.jv-selected");
        assert.equal(await page.evaluate(() => window.__viewer.view().fog), 0);
        const cells = (await page.evaluate(() => window.__viewer.state())).cells;
        assert.ok(cells.every((c) => c[0] === 1));
        await noErrors(page);
        await page.close();
    });

    test("generals: the violation panel and the slider mark a forbidden call and an invalid line", async (t) => {
        for (const [name, verdict, shows] of [["generals-fog", "FORBIDDEN_SYSCALL", /socket\(2, 1, 0,/],
                                              ["generals-clear", "INVALID_OUTPUT", /the bot senthello/]]) {
            const m = fixture(t, name);
            if (!m) return;
            const v = m.lines.find((l) => l.type === "violation");
            const page = await browser.open(m.url);
            const marks = await page.evaluate(() => window.__viewer.marks());
            const mark = marks.find((x) => x.kind === "violation");
            assert.ok(mark, "a violation mark on the slider");
            assert.equal(mark.player, v.player);
            assert.equal(await page.locator(".jv-mark-violation").count(), marks.filter((x) => x.kind === "violation").length);
            await goTurn(page, mark.frame);
            const text = (await page.evaluate(() => window.__viewer.violations())).join("\n");
            assert.match(text, new RegExp(verdict));
            assert.match(text, shows);
            assert.match(text, /judge replay verify /);
            assert.ok(marks.some((x) => x.kind === "elimination" && x.player === v.player) || name === "generals-clear" ||
                      marks.some((x) => x.player === v.player));
            await noErrors(page);
            await page.close();
        }
    });

    test("generals: the CPU chart ends at each player's total and a click jumps to the move", async (t) => {
        const m = fixture(t, "generals-clear");
        if (!m) return;
        const page = await browser.open(m.url);
        const cpu = await page.evaluate(() => window.__viewer.cpu());
        assert.equal(cpu.length, m.header.players.length);
        for (let p = 0; p < cpu.length; p++)
            assert.equal(cpu[p][cpu[p].length - 1].y, m.result.players[p].cpu_ns, "player " + (p + 1));
        const reply = m.lines.find((l) => l.type === "reply" && l.player === 1 && l.reply === 40);
        const point = cpu[0].find((pt) => pt.x === 40);
        assert.equal(point.y, reply.cpu_ns);
        /* Click that point on the canvas. */
        const box = page.locator(".jv-chart canvas").last();
        const pos = await box.evaluate((canvas, pt) => {
            const chart = window.JV.app.charts.find((c) => c.cpuChart);
            return {x: chart.px(pt.x) * canvas.clientWidth / canvas.width, y: chart.py(pt.y) * canvas.clientHeight / canvas.height};
        }, point);
        await box.click({position: pos});
        /* The players' CPU curves lie on each other far below the budget: the click lands on
         * reply 40 of one of them (or a neighbour, 3 pixels away), each drawn at that spot. */
        const frames40 = cpu.flat().filter((pt) => Math.abs(pt.x - 40) <= 1).map((pt) => pt.frame);
        await page.waitForFunction((fs) => fs.includes(window.__viewer.turn()), frames40);
        await noErrors(page);
        await page.close();
    });

    test("generals: Space plays and pauses, digits set the speed, playback keeps the URL", async (t) => {
        const m = fixture(t, "generals-clear");
        if (!m) return;
        const page = await browser.open(m.url + "#turn=5");
        assert.equal(await page.evaluate(() => window.__viewer.turn()), 5);
        await page.keyboard.press("9");
        await page.keyboard.press(" ");
        /* Past 150 turns: faster than a browser lets a page write its URL, so no warning. */
        await page.waitForFunction(() => window.__viewer.turn() >= 155);
        await page.keyboard.press(" ");
        assert.equal(await page.evaluate(() => window.__viewer.playing()), false);
        const f = await page.evaluate(() => window.__viewer.turn());
        await page.waitForFunction((h) => location.hash === h, "#turn=" + f);
        assert.match(await page.textContent(".jv-speed"), /speed 9/);
        await noErrors(page);
        await page.close();
    });

    test("sea battle: fleets and shots at a turn are the engine's log", async (t) => {
        const m = fixture(t, "seabattle");
        if (!m) return;
        const log = fx.exportLog(m, "seabattle-log").split("\n");
        const fleets = [log.slice(0, 10), log.slice(11, 21)];
        const shots = log.slice(22).filter(Boolean).map((l) => l.split(" ")).map((s) => [Number(s[0]), Number(s[1]), Number(s[2]), s[3]]);
        const page = await browser.open(m.url + "#turn=end");
        const frames = await page.evaluate(() => window.__viewer.frames());
        for (const f of sample([...frames.keys()].slice(2), 8).concat([frames.length - 1])) {
            await goTurn(page, f);
            const fired = fx.linesAfterInputs(m, frames[f].n).filter((l) => l.type === "event" && l.event.t === "shot").length;
            const model = await page.evaluate(() => window.__viewer.state());
            for (let p = 1; p <= 2; p++) {
                const board = model.boards[p - 1];
                assert.deepEqual(board.fleet, fleets[p - 1]);
                assert.deepEqual(board.shots, shots.slice(0, fired).filter((s) => s[0] === 3 - p), "turn " + f + ", board " + p);
            }
        }
        /* Through one player's eyes the other fleet is hidden. */
        await page.click(".jv-leaderboard tr[data-player='1']");
        const mine = await page.evaluate(() => window.__viewer.state());
        assert.deepEqual(mine.boards[0].fleet, fleets[0]);
        assert.equal(mine.boards[1].fleet, null);
        await page.click(".jv-leaderboard tr[data-player='1']");
        const cpu = await page.evaluate(() => window.__viewer.cpu());
        for (let p = 0; p < 2; p++) assert.equal(cpu[p][cpu[p].length - 1].y, m.result.players[p].cpu_ns);
        await goTurn(page, Math.floor(frames.length / 2));
        await screenshot(page, "seabattle");
        await noErrors(page);
        await page.close();
    });

    test("warlight: territories after each turn are the engine's log", async (t) => {
        const m = fixture(t, "warlight");
        if (!m) return;
        const log = fx.exportLog(m, "warlight-log").split("\n");
        const boards = [];
        let rows = null;
        for (const l of log) {
            if (l.startsWith("turn ")) boards.push(rows = []);
            else if (l.startsWith("row ") && rows) rows.push(l.split(" ").slice(2).join(" "));
        }
        const page = await browser.open(m.url + "#turn=end");
        const frames = await page.evaluate(() => window.__viewer.frames());
        for (const f of sample([...frames.keys()].slice(1), 10)) {
            await goTurn(page, f);
            const turns = fx.linesAfterInputs(m, frames[f].n).filter((l) => l.type === "event" && l.event.t === "turn").length;
            const model = await page.evaluate(() => window.__viewer.state());
            assert.deepEqual(model.rows, boards[turns - 1], "turn " + f);
        }
        const end = m.lines.filter((l) => l.type === "event" && l.event.t === "end").pop();
        await goTurn(page, frames.length - 1);
        assert.deepEqual((await page.evaluate(() => window.__viewer.state())).players.map((p) => p.points), end.event.points);
        /* No budget in warlight: the chart shows each reply's wall time; its last point is the last reply's. */
        const cpu = await page.evaluate(() => window.__viewer.cpu());
        for (let p = 0; p < 2; p++) {
            const lastReply = m.lines.filter((l) => l.type === "reply" && l.player === p + 1).pop();
            assert.equal(cpu[p][cpu[p].length - 1].y, lastReply.wall_ns);
        }
        await goTurn(page, Math.floor(frames.length / 3));
        await screenshot(page, "warlight");
        await noErrors(page);
        await page.close();
    });

    test("bomberman: walls, blocks, bombs, lava, bonuses and players are the state each bot read", async (t) => {
        const m = fixture(t, "bomberman");
        if (!m) return;
        const page = await browser.open(m.url + "#turn=end");
        const frames = await page.evaluate(() => window.__viewer.frames());
        /* The state a bot reads (docs/games/bomberman.md): its sections, without TICK, YOU, CONFIG. */
        function sections(text) {
            const lines = text.trim().split("\n"), out = {};
            for (let i = 0; i < lines.length; i++) {
                const [word, count] = lines[i].split(" ");
                if (word === "MAP") { out.map = lines.slice(i + 1, i + 16); i += 15; }
                else if (["PLAYERS", "BOMBS", "BONUSES", "LAVA"].includes(word)) {
                    out[word.toLowerCase()] = lines.slice(i + 1, i + 1 + Number(count));
                    i += Number(count);
                }
            }
            return out;
        }
        const seen = new Set();
        const wanted = m.prompts.filter((p) => {
            const f = frameBefore(frames, p.input);
            if (f < 0 || seen.has(f)) return false;
            seen.add(f);
            return true;
        });
        const sampled = sample(wanted, 14);
        /* A tick with a bomb, lava and a death among them when the match has them. */
        for (const kind of ["boom", "death", "block"]) {
            const line = m.lines.find((l) => l.type === "event" && l.event.t === kind);
            if (!line) continue;
            const p = wanted.find((x) => x.round === line.event.round + 1);
            if (p) sampled.push(p);
        }
        let bombs = 0, lava = 0;
        for (const p of sampled) {
            const f = frameBefore(frames, p.input);
            await goTurn(page, f);
            const model = await page.evaluate(() => window.__viewer.state());
            const want = sections(p.prompt);
            assert.deepEqual({map: model.map, players: model.players, bombs: model.bombs, bonuses: model.bonuses, lava: model.lava},
                             want, "turn " + f + " (tick " + p.round + ")");
            bombs += want.bombs.length;
            lava += want.lava.length;
        }
        assert.ok(bombs > 0 && lava > 0, "the sampled ticks show bombs and lava");
        const deaths = m.lines.filter((l) => l.type === "event" && l.event.t === "death").length;
        assert.equal((await page.evaluate(() => window.__viewer.marks())).filter((x) => x.kind === "death").length, deaths);
        const end = m.lines.filter((l) => l.type === "event" && l.event.t === "end").pop();
        await goTurn(page, frames.length - 1);
        assert.deepEqual((await page.evaluate(() => window.__viewer.state())).players.map((p) => Number(p.split(" ")[5])), end.event.points);
        const boom = m.lines.find((l) => l.type === "event" && l.event.t === "boom");
        if (boom) {
            const p = wanted.find((x) => x.round === boom.event.round + 1);
            if (p) await goTurn(page, frameBefore(frames, p.input));
        }
        await screenshot(page, "bomberman");
        await noErrors(page);
        await page.close();
    });

    test("judge results: index.html lists, filters and links every match to its page", async (t) => {
        const names = ["generals-fog", "generals-clear", "seabattle", "warlight"];
        const ms = names.map((n) => fixture(t, n));
        if (ms.some((m) => !m)) return;
        const inputs = path.join(fx.tmp, "results-in"), out = path.join(fx.tmp, "results");
        fs.mkdirSync(inputs, {recursive: true});
        for (const m of ms) fs.copyFileSync(m.replay, path.join(inputs, path.basename(m.replay)));
        /* A player named like markup: shown as text, never ending or bending the page's script. */
        const zlib = require("node:zlib"), evil = "</script><!--<script>x";
        const lines = zlib.gunzipSync(fs.readFileSync(ms[2].replay)).toString("utf8").trim().split("\n");
        for (const i of [0, lines.length - 1]) {
            const o = JSON.parse(lines[i]);
            o.players[0].name = evil;
            if (i === 0) o.seed = 777;
            if (i === 0) o.players[1].reference = true; /* a gauntlet's reference bot */
            lines[i] = JSON.stringify(o);
        }
        fs.writeFileSync(path.join(inputs, "markup.jsonl.gz"), zlib.gzipSync(lines.join("\n") + "\n"));
        fx.judge(["results", inputs, "--out", out]);
        const standings = JSON.parse(fs.readFileSync(path.join(out, "standings.json"), "utf8"));
        /* The five matches on one page, which shows the one its ?m= names or else lists them. */
        assert.deepEqual(fs.readdirSync(path.join(out, "matches")), ["1-5.html"]);
        const html = fs.readFileSync(path.join(out, "matches", "1-5.html"), "utf8");
        assert.match(html, /<script src="\.\.\/viewer\.js"><\/script>/, "the page shares viewer.js");
        assert.ok(!html.includes("JV.App = function"), "the page does not inline the viewer");
        assert.equal((html.match(/class="jv-replay"/g) || []).length, 5);
        const listing = await browser.open("file://" + path.join(out, "matches", "1-5.html"));
        assert.equal(await listing.evaluate(() => document.body.dataset.state), "waiting");
        assert.equal(await listing.locator(".jv-matches a").count(), 5);
        await listing.locator(".jv-matches a", {hasText: "warlight"}).click();
        await listing.waitForFunction(() => document.body.dataset.state === "ready" && window.__viewer && window.__viewer.ready);
        assert.equal(await listing.evaluate(() => window.__viewer.game), "warlight");
        await noErrors(listing);
        await listing.goto("file://" + path.join(out, "matches", "1-5.html") + "?m=9-nothing");
        assert.equal(await listing.evaluate(() => document.body.dataset.state), "error");
        assert.match(await listing.textContent("#jv-message"), /This page holds no match 9-nothing/);
        await listing.close();
        const page = await browser.open("file://" + path.join(out, "index.html"));
        /* The reference bot in a table of its own, after the class's. */
        const reference = JSON.parse(lines[0]).players[1].name;
        assert.ok(standings.players.find((p) => p.name === reference).reference);
        assert.equal(await page.locator(".jr-standings tr").count(), standings.players.length + 2);
        const tables = await page.evaluate(() => [...document.querySelectorAll(".jr-standings table")].map(
            (t) => [...t.querySelectorAll("td:nth-child(2)")].map((td) => td.textContent)));
        assert.deepEqual(tables.slice(1), [[reference]]);
        assert.ok(!tables[0].includes(reference), "the class's table holds no reference bot");
        assert.equal(await page.locator(".jr-standings h3", {hasText: "Reference bots"}).count(), 1);
        assert.equal(await page.locator(".jr-matches tr").count(), names.length + 2);
        assert.ok((await page.locator(".jr-standings td", {hasText: evil}).count()) >= 1, "the markup name shown as text");
        await page.fill("#jr-filter", "seabattle 1");
        assert.equal(await page.locator(".jr-matches tr").count(), 2);
        await page.fill("#jr-filter", "");
        await screenshot(page, "results");
        /* The audit's link opens the match at the violation. */
        await page.evaluate(() => document.querySelectorAll("details").forEach((d) => { d.open = true; }));
        /* Each violation's heading as audit.md words it: the kind, then the verdict. */
        const md = fs.readFileSync(path.join(out, "audit.md"), "utf8").replace(/\\(.)/g, "$1");
        const headings = await page.locator(".jr-audit h3").allTextContents();
        assert.ok(headings.some((h) => /^forbidden_syscall \(FORBIDDEN_SYSCALL\) in round/.test(h)), JSON.stringify(headings));
        for (const h of headings) assert.ok(md.includes(". " + h + "\n"), h + " as audit.md words it");
        const link = page.locator(".jr-audit a", {hasText: "forbidden"});
        await link.click();
        await page.waitForFunction(() => document.body.dataset.state === "ready" && window.__viewer && window.__viewer.ready);
        assert.match((await page.evaluate(() => window.__viewer.violations())).join("\n"), /FORBIDDEN_SYSCALL/);
        await noErrors(page);
        await page.goBack();
        await page.waitForFunction(() => document.body.dataset.state === "ready" && document.querySelector("#jr-filter"));
        await page.fill("#jr-filter", "warlight");
        await page.locator(".jr-matches a").first().click();
        await page.waitForFunction(() => document.body.dataset.state === "ready" && window.__viewer && window.__viewer.ready);
        assert.equal(await page.evaluate(() => window.__viewer.game), "warlight");
        await noErrors(page);
        await page.close();
    });

    test("judge results: index.html shows compile verdicts, the compiler's messages and smoke tests as audit.md does", async (t) => {
        const m = fixture(t, "generals-clear");
        if (!m) return;
        const zlib = require("node:zlib");
        const inputs = path.join(fx.tmp, "records-in"), out = path.join(fx.tmp, "records");
        for (const d of ["replays", "compile", "smoke"]) fs.mkdirSync(path.join(inputs, d), {recursive: true});
        fs.copyFileSync(m.replay, path.join(inputs, "replays", path.basename(m.replay)));
        const record = (dir, o) => fs.writeFileSync(path.join(inputs, dir, o.player + ".jsonl.gz"), zlib.gzipSync(JSON.stringify(o) + "\n"));
        /* A student's compiler messages holding markup: shown as text, never as elements. */
        const messages = "bot.cpp:7:34: error: expected ';' before </pre><b id=\"injected\">while</b>\n    8 |     while (x) {\n";
        record("compile", {type: "compile", format: "judge-compile", version: 1, player: "erin", profile: "cpp", source: "submissions/erin",
                           verdict: "COMPILE_ERROR", exit_code: 1, messages, cpu_ns: 1200000, wall_ns: 3000000, judge_version: "x"});
        record("compile", {type: "compile", format: "judge-compile", version: 1, player: "greedy", profile: "c", source: "submissions/greedy",
                           verdict: "OK", exit_code: 0, messages: "", cpu_ns: 1, wall_ns: 2, judge_version: "x"});
        const reason = "column 1: 'I' is not a number; sent \"I will <i>crush</i> you all!\"";
        record("smoke", {type: "smoke", format: "judge-smoke", version: 1, player: "frank", verdict: "INVALID_OUTPUT", reason,
                         stderr_tail: "Traceback: <script>boom()</script>\n", match_id: "0020-gen-s1-frank-vs-greedy", judge_version: "x"});
        fx.judge(["results", path.join(inputs, "replays"), path.join(inputs, "compile"), path.join(inputs, "smoke"), "--out", out]);
        const page = await browser.open("file://" + path.join(out, "index.html"));
        /* The compile column: standings.json's verdict string, as it is (no quotes). */
        const column = await page.evaluate(() => {
            const head = [...document.querySelectorAll(".jr-standings tr:first-child th")].map((th) => th.textContent);
            const at = head.indexOf("compile"), of = {};
            document.querySelectorAll(".jr-standings tr").forEach((tr) => {
                if (tr.cells[at] && tr.cells[at].tagName === "TD") of[tr.cells[1].textContent] = tr.cells[at].textContent;
            });
            return of;
        });
        assert.deepEqual(column, {greedy: "OK", random: "", garbage: "", erin: "COMPILE_ERROR", frank: ""});
        /* The compile failures, with the compiler's messages as text. */
        assert.equal(await page.locator(".jr-standings h3", {hasText: "Compile failures"}).count(), 1);
        const failures = page.locator(".jr-compile-failures li");
        assert.equal(await failures.count(), 1);
        assert.match(await failures.first().textContent(), /^erin: COMPILE_ERROR/);
        assert.equal(await failures.first().locator("pre").textContent(), messages);
        assert.equal(await page.locator("#injected").count(), 0, "a student's messages are never markup");
        assert.equal(await page.locator(".jr-audit i, .jr-audit script").count(), 0, "a bot's reason and stderr are never markup");
        /* The audit: the compile and smoke test records worded as audit.md words them. */
        await page.evaluate(() => document.querySelectorAll("details").forEach((d) => { d.open = true; }));
        const audit = await page.textContent(".jr-audit");
        assert.doesNotMatch(audit, /undefined/);
        const md = fs.readFileSync(path.join(out, "audit.md"), "utf8").replace(/\\(.)/g, "$1");
        const headings = await page.locator(".jr-audit h3").allTextContents();
        for (const h of ["compile (COMPILE_ERROR)", "smoke test (INVALID_OUTPUT): its first reply, before the tournament; no match played"]) {
            assert.ok(headings.includes(h), h + " in " + JSON.stringify(headings));
            assert.ok(md.includes("### 1. " + h + "\n"), "audit.md says " + h);
        }
        const summaries = await page.locator(".jr-audit summary").allTextContents();
        for (const who of ["erin", "frank"]) {
            const want = md.match(new RegExp("^## " + who + " (\\(rank \\d+\\): 1 entry)$", "m"));
            assert.ok(want && summaries.includes(who + " " + want[1]), who + ": " + JSON.stringify(summaries));
        }
        const entry = (text) => page.locator(".jr-audit .jv-violation", {has: page.locator("h3", {hasText: text})});
        const rows = async (text) => entry(text).evaluate((d) => {
            const o = {};
            d.querySelectorAll("dt").forEach((dt) => { o[dt.textContent] = dt.nextElementSibling.textContent; });
            return o;
        });
        assert.deepEqual(await rows("compile (COMPILE_ERROR)"),
                         {record: path.join(inputs, "compile", "erin.jsonl.gz"), profile: "cpp", source: "submissions/erin", "exit code": "1",
                          "compiler output": messages});
        assert.deepEqual(await rows("smoke test (INVALID_OUTPUT)"),
                         {record: path.join(inputs, "smoke", "frank.jsonl.gz"), "first state of match": "0020-gen-s1-frank-vs-greedy", reason,
                          stderr: "Traceback: <script>boom()</script>\n"});
        /* A match's violation still links to its reply. */
        assert.ok((await page.locator(".jr-audit a").count()) >= 1);
        await noErrors(page);
        await page.close();
    });

    test("judge results: a player named like a key of every JS object ('constructor', '__proto__') is told as audit.md tells it", async (t) => {
        const m = fixture(t, "generals-clear");
        if (!m) return;
        const zlib = require("node:zlib");
        const inputs = path.join(fx.tmp, "proto-in"), out = path.join(fx.tmp, "proto");
        fs.mkdirSync(inputs, {recursive: true});
        /* The rule breaker ("garbage", no reference bot) renamed, once per name, in a match of its own. */
        const names = ["constructor", "__proto__"];
        const lines = zlib.gunzipSync(fs.readFileSync(m.replay)).toString("utf8").trim().split("\n");
        names.forEach((name, k) => {
            const copy = lines.map((l, i) => {
                if (i !== 0 && i !== lines.length - 1) return l;
                const o = JSON.parse(l);
                o.players.forEach((p) => { if (p.name === "garbage") p.name = name; });
                if (i === 0) o.seed = 900 + k;
                return JSON.stringify(o);
            });
            fs.writeFileSync(path.join(inputs, "proto-" + k + ".jsonl.gz"), zlib.gzipSync(copy.join("\n") + "\n"));
        });
        fx.judge(["results", inputs, "--out", out]);
        const page = await browser.open("file://" + path.join(out, "index.html"));
        await page.evaluate(() => document.querySelectorAll("details").forEach((d) => { d.open = true; }));
        const summaries = await page.locator(".jr-audit summary").allTextContents();
        const md = fs.readFileSync(path.join(out, "audit.md"), "utf8").replace(/\\(.)/g, "$1");
        for (const name of names) {
            const want = md.match(new RegExp("^## " + name + " (\\(rank \\d+\\): \\d+ entr(y|ies))$", "m"));
            assert.ok(want, name + " in audit.md");
            assert.ok(summaries.includes(name + " " + want[1]), name + ": " + JSON.stringify(summaries));
        }
        assert.ok(summaries.every((s) => !s.includes("reference bot")), JSON.stringify(summaries));
        /* Its violations link to their match's page. */
        assert.equal(await page.locator(".jr-audit a").count(), await page.locator(".jr-audit .jv-violation").count());
        await noErrors(page);
        await page.close();
    });

    test("stepping animates the turn; a jump shows it at once", async (t) => {
        const m = fixture(t, "generals-clear");
        if (!m) return;
        const page = await browser.open(m.url + "#turn=10");
        /* Held in one task: the key's step starts an animation that has not ended yet. */
        const started = await page.evaluate(() => {
            document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight", bubbles: true}));
            return window.__viewer.animation();
        });
        assert.ok(started < 1, "an animation runs after a step (" + started + ")");
        await page.waitForFunction(() => window.__viewer.animation() === 1);
        await goTurn(page, 40);
        assert.equal(await page.evaluate(() => window.__viewer.animation()), 1);
        await noErrors(page);
        await page.close();
    });

    test("the viewer's own page (viewer/index.html) waits for a replay", async () => {
        const page = await browser.open("file://" + path.join(fx.ROOT, "viewer/index.html"));
        assert.equal(await page.evaluate(() => document.body.dataset.state), "waiting");
        assert.match(await page.textContent("#jv-message"), /Drop a replay/);
        await noErrors(page);
        await page.close();
    });

    test("dropping another replay on the page opens it", async (t) => {
        const sea = fixture(t, "seabattle"), war = fixture(t, "warlight");
        if (!sea || !war) return;
        const page = await browser.open(sea.url + "#turn=5");
        assert.equal(await page.evaluate(() => window.__viewer.game), "seabattle");
        const bytes = fs.readFileSync(war.replay).toString("base64");
        await page.evaluate((b64) => {
            const bin = atob(b64), data = new Uint8Array(bin.length);
            for (let i = 0; i < bin.length; i++) data[i] = bin.charCodeAt(i);
            const dt = new DataTransfer();
            dt.items.add(new File([data], "warlight.jsonl.gz"));
            document.dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
        }, bytes);
        await page.waitForFunction(() => window.__viewer && window.__viewer.game === "warlight");
        assert.equal(await page.evaluate(() => window.__viewer.turn()), 0);
        assert.match(await page.textContent(".jv-title"), /warlight\.jsonl\.gz/);
        await noErrors(page);
        await page.close();
    });

    test("a damaged, truncated or unknown replay shows a message, never a blank page", async (t) => {
        const m = fixture(t, "seabattle");
        if (!m) return;
        const cases = {truncated: /damaged or truncated/, garbage: /not a judge replay/,
                       version: /format version 99, which this viewer does not know/, "no-result": /truncated: it has \d+ lines and no result line/};
        for (const [kind, message] of Object.entries(cases)) {
            const page = await browser.open(fx.damagedPage(m, kind));
            assert.equal(await page.evaluate(() => document.body.dataset.state), "error", kind);
            assert.match(await page.textContent("#jv-message"), message);
            assert.equal(await page.isVisible("#jv-message"), true);
            await noErrors(page);
            if (kind === "version") await screenshot(page, "error");
            await page.close();
        }
    });
});
