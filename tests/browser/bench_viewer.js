/* bench_viewer.js - figures of the viewer in headless chromium for `make bench`
 * (tests/bench/bench_viewer.sh): never asserted. Arguments: PAGE.html... [--index INDEX.html].
 * For each replay page: time to the first frame (from navigation start), against the
 * baseline of decoding the same replay alone in the page (gunzip + JSON of every line); the
 * seek from the first to the last turn and the slowest and mean of 100 random jumps, against
 * the baseline of redrawing the shown turn. For an index.html: its size and time to render. */
"use strict";
const fs = require("node:fs");
const { launch } = require("./browser");

async function replayFigures(browser, file) {
    const page = await browser.open("file://" + file);
    const f = await page.evaluate(async () => {
        const first = JV.readyAt, app = JV.app, last = app.timeline.last();
        let t = performance.now();
        await JV.decodeReplay(JV.base64ToBytes(document.getElementById("jv-replay").textContent));
        const decode = performance.now() - t;
        t = performance.now();
        for (let i = 0; i < 20; i++) app.render();
        const draw = (performance.now() - t) / 20;
        app.go(0, false);
        app.timeline.cache = {frame: -1, state: null};
        t = performance.now();
        app.go(last, false);
        const seekEnd = performance.now() - t;
        let seed = 12345, worst = 0, total = 0;
        for (let i = 0; i < 100; i++) {
            seed = (seed * 1103515245 + 12345) % 2147483648;
            const to = seed % (last + 1);
            t = performance.now();
            app.go(to, false);
            const d = performance.now() - t;
            worst = Math.max(worst, d);
            total += d;
        }
        return {game: app.replay.header.game, turns: last, first, decode, draw, seekEnd, worst, mean: total / 100};
    });
    await page.close();
    const size = fs.statSync(file).size;
    const r = (a, b) => (b > 0 ? (a / b).toFixed(1) + "x" : "-");
    console.log(`  ${f.game}: ${f.turns} turns, page ${(size / 1048576).toFixed(2)} MiB`);
    console.log(`    first frame ${f.first.toFixed(0)} ms (decoding alone ${f.decode.toFixed(0)} ms: ${r(f.first, f.decode)})`);
    console.log(`    seek first->last ${f.seekEnd.toFixed(1)} ms; 100 random jumps: slowest ${f.worst.toFixed(1)} ms, mean ${f.mean.toFixed(1)} ms` +
                ` (one redraw ${f.draw.toFixed(1)} ms: slowest ${r(f.worst, f.draw)})`);
}

async function indexFigures(browser, file) {
    const page = await browser.open("file://" + file);
    await page.waitForFunction(() => window.__reportReadyAt !== undefined);
    const f = await page.evaluate(() => {
        const t = performance.now();
        JSON.parse(document.getElementById("jr-matches").textContent);
        return {ready: window.__reportReadyAt, parse: performance.now() - t, rows: document.querySelectorAll(".jr-matches tr").length - 1};
    });
    const t = Date.now();
    await page.fill("#jr-filter", "student07");
    const filter = Date.now() - t;
    await page.close();
    console.log(`  index.html: ${(fs.statSync(file).size / 1048576).toFixed(2)} MiB, rendered ${f.ready.toFixed(0)} ms after navigation` +
                ` (parsing its match list alone ${f.parse.toFixed(0)} ms), ${f.rows} rows a page, a filter over every match ${filter} ms`);
}

(async () => {
    const args = process.argv.slice(2);
    const browser = await launch();
    try {
        for (let i = 0; i < args.length; i++) {
            if (args[i] === "--index") await indexFigures(browser, args[++i]);
            else await replayFigures(browser, args[i]);
        }
    } finally {
        await browser.close();
    }
})().catch((e) => { console.log("  failed: " + e.message); process.exit(0); });
