/* browser.js - headless Debian chromium through playwright-core, one page per check, with
 * every console message of type error and every page error collected. */
"use strict";
const { CHROMIUM } = require("./judge_fixtures");

const ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
              "--disable-sync", "--no-first-run"];

async function launch() {
    const { chromium } = require("playwright-core");
    const fs = require("node:fs"), os = require("node:os"), path = require("node:path");
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), "judge-chromium-"));
    const context = await chromium.launchPersistentContext(profile, {executablePath: CHROMIUM, headless: true, args: ARGS,
                                                                     viewport: {width: 1400, height: 1000}});
    return {
        context,
        async open(url) {
            const page = await context.newPage();
            page.errors = [];
            page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") page.errors.push(m.text()); });
            page.on("pageerror", (e) => page.errors.push(String(e)));
            await page.goto(url);
            await page.waitForFunction(() => ["ready", "error", "waiting"].includes(document.body.dataset.state), null, {timeout: 20000});
            return page;
        },
        async close() {
            await context.close();
            fs.rmSync(profile, {recursive: true, force: true});
        }
    };
}

module.exports = {launch};
