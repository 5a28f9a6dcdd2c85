/* report.js - OUT/index.html of `judge results`: the standings, the audit and every match,
 * from the JSON blocks the results stage put in the page; the match list is paged and
 * filtered here, so the page stays small and quick with ten thousand matches. */
"use strict";
(function () {
    var PAGE = 100;

    function el(tag, cls, text) {
        var e = document.createElement(tag);
        if (cls) e.className = cls;
        if (text !== undefined && text !== null) e.textContent = String(text);
        return e;
    }

    function data(id) {
        var node = document.getElementById(id);
        try {
            return node ? JSON.parse(node.textContent) : null;
        } catch (e) {
            return null;
        }
    }

    function table(head, rows) {
        var t = el("table", "jr-table"), tr = el("tr");
        head.forEach(function (h) { tr.appendChild(el("th", "", h)); });
        t.appendChild(tr);
        rows.forEach(function (r) { t.appendChild(r); });
        return t;
    }

    function cells(values) {
        var tr = el("tr");
        values.forEach(function (v) {
            if (v instanceof Node) { var td = el("td"); td.appendChild(v); tr.appendChild(td); }
            else tr.appendChild(el("td", typeof v === "number" ? "jr-num" : "", v));
        });
        return tr;
    }

    function ms(ns) { return (ns / 1e6).toFixed(ns < 1e7 ? 1 : 0) + " ms"; }

    /* "NAME count, ..." of an object of counts, the non-zero ones (a total left out). */
    function countsText(v) {
        if (!v || typeof v !== "object") return "";
        return Object.keys(v).filter(function (k) { return k !== "total" && v[k]; }).map(function (k) { return k + " " + v[k]; }).join(", ");
    }

    function shown(v) { return v === undefined || v === null ? "" : v; }

    /* A map from names (a player's, a replay's path) with no keys of its own: a player may be
     * named "constructor" or "__proto__", which a {} answers from Object.prototype. */
    function byName() { return Object.create(null); }

    /* standings.json's "compile": the player's compile record's verdict (a string), null without one. */
    function compileVerdict(p) { return typeof p.compile === "string" ? p.compile : ""; }

    /* audit.json's entries of a player by name; null when the audit is not in the page (too large). */
    function auditEntries(audit) {
        if (!audit) return null;
        var of = byName();
        (audit.players || []).forEach(function (p) { of[p.name] = p.violations || []; });
        return of;
    }

    /* "name: VERDICT" and the compiler's messages (audit.json's compile entry), as text. */
    function compileFailure(p, entries) {
        var li = el("li", "", p.name + ": " + compileVerdict(p));
        if (!entries) { li.appendChild(el("p", "jr-meta", "compiler messages: in audit.md (the audit is too large for this page)")); return li; }
        var c = (entries[p.name] || []).filter(function (v) { return v.kind === "compile"; })[0];
        if (!c) return li;
        li.appendChild(c.messages ? el("pre", "", c.messages) : el("p", "jr-meta", "compiler output: (empty)"));
        return li;
    }

    /* The class and the reference bots each get one (docs/results.md: "listed apart"). */
    function standingsTable(players) {
        var rows = players.map(function (p) {
            var tr = cells([shown(p.rank), shown(p.name), typeof p.rating === "number" ? p.rating.toFixed(1) + " ± " + (p.rating_se || 0).toFixed(0) : "",
                            shown(p.points), shown(p.wins) + "/" + shown(p.draws) + "/" + shown(p.losses), shown(p.matches), shown(p.verdict),
                            compileVerdict(p), p.verdicts ? countsText(p.verdicts) : "", countsText(p.violations), ms(p.cpu_ns || 0)]);
            if (p.verdict !== "OK") tr.className = "jr-bad";
            return tr;
        });
        return table(["rank", "player", "rating", "points", "W/D/L", "matches", "verdict", "compile", "verdicts in matches",
                      "violations", "CPU"], rows);
    }

    function standingsSection(st, audit) {
        var sec = el("section", "jr-standings");
        sec.appendChild(el("h2", "", "Standings"));
        if (!st) { sec.appendChild(el("p", "", "standings.json is missing or unreadable.")); return sec; }
        sec.appendChild(el("p", "jr-meta", st.matches + " matches of " + (st.games || []).join(", ") + " from " + st.files + " files" +
            (st.skipped ? "; skipped " + st.skipped.damaged + " damaged, " + st.skipped.duplicate + " duplicate" : "") + " · ranking: " + st.ranking));
        var players = st.players || [];
        sec.appendChild(standingsTable(players.filter(function (p) { return !p.reference; })));
        var references = players.filter(function (p) { return p.reference; });
        if (references.length) {
            sec.appendChild(el("h3", "", "Reference bots (the teacher's: not part of the class's ranking)"));
            sec.appendChild(standingsTable(references));
        }
        var failed = (st.players || []).filter(function (p) { return compileVerdict(p) && compileVerdict(p) !== "OK"; });
        if (failed.length) {
            var entries = auditEntries(audit), ul = el("ul", "jr-compile-failures");
            sec.appendChild(el("h3", "", "Compile failures"));
            failed.forEach(function (p) { ul.appendChild(compileFailure(p, entries)); });
            sec.appendChild(ul);
        }
        return sec;
    }

    /* One entry of audit.json in a <dl>, worded as audit.md words it: a match's violation, a
     * failed compile (kind "compile") or a failed smoke test (kind "smoke_test"). Every value
     * is text (a bot's output, a student's compiler messages): never markup. */
    function auditEntry(v, pageOf) {
        var d = el("div", "jv-violation"), dl = el("dl");
        function row(k, val, pre) {
            if (val === null || val === undefined || val === "") return;
            dl.appendChild(el("dt", "", k));
            var dd = el("dd");
            if (val instanceof Node) dd.appendChild(val); else dd.appendChild(el(pre ? "pre" : "span", "", val));
            dl.appendChild(dd);
        }
        function output(k, val) { if (val) row(k, val, true); else row(k, "(empty)"); }
        if (v.kind === "compile") {
            d.appendChild(el("h3", "", "compile (" + v.verdict + ")"));
            row("record", v.file);
            row("profile", v.profile);
            row("source", v.source);
            if (typeof v.exit_code === "number") row("exit code", String(v.exit_code));
            output("compiler output", v.messages);
        } else if (v.kind === "smoke_test") {
            d.appendChild(el("h3", "", "smoke test (" + v.verdict + "): its first reply, before the tournament; no match played"));
            row("record", v.file);
            row("first state of match", v.match_id);
            row("reason", v.reason);
            output("stderr", v.stderr_tail);
        } else {
            d.appendChild(el("h3", "", v.kind + " (" + v.verdict + ") in round " + v.round + ", reply " + v.reply));
            var href = pageOf[v.replay];
            if (href) {
                var a = el("a", "", v.game + " seed " + v.seed + " (" + (v.players || []).join(" vs ") + ")");
                a.href = href + "#player=" + v.player_number + "&reply=" + v.reply;
                row("match", a);
            } else row("match", v.replay);
            row("sent", v.sent, true);
            row("reason", v.reason);
            if (v.limit !== null && v.limit !== undefined) row("limit / figure", v.limit + " / " + v.figure);
            row("stderr (tail)", v.stderr_tail, true);
            row("verify", v.verify, true);
            row("re-run", v.rerun, true);
        }
        d.appendChild(dl);
        return d;
    }

    function auditSection(audit, st, pageOf) {
        var sec = el("section", "jr-audit");
        sec.appendChild(el("h2", "", "Audit: every violation and failed compile"));
        if (!audit) {
            sec.appendChild(el("p", "", "The audit is too large to show here: open audit.md (or audit.json)."));
            return sec;
        }
        var reference = byName();
        ((st && st.players) || []).forEach(function (p) { if (p.reference) reference[p.name] = true; });
        var any = false;
        (audit.players || []).forEach(function (p) {
            if (!p.violations || !p.violations.length) return;
            any = true;
            var box = el("details", "jr-player"), n = p.count;
            box.appendChild(el("summary", "", p.name + " (" + (reference[p.name] ? "reference bot, " : "") + "rank " + p.rank + "): " +
                                              n + " entr" + (n === 1 ? "y" : "ies")));
            p.violations.forEach(function (v) { box.appendChild(auditEntry(v, pageOf)); });
            sec.appendChild(box);
        });
        if (!any) sec.appendChild(el("p", "", "No violations and no failed compiles."));
        return sec;
    }

    function matchesSection(matches) {
        var sec = el("section", "jr-matches"), state = {filter: "", page: 0};
        sec.appendChild(el("h2", "", "Matches (" + matches.length + ")"));
        var bar = el("div", "jr-bar"), input = el("input"), info = el("span", "jr-meta"), prev = el("button", "", "◀ previous"), next = el("button", "", "next ▶");
        input.type = "search";
        input.placeholder = "filter: player, game, verdict, seed…";
        input.id = "jr-filter";
        bar.appendChild(input);
        bar.appendChild(prev);
        bar.appendChild(next);
        bar.appendChild(info);
        sec.appendChild(bar);
        var body = el("div");
        sec.appendChild(body);
        var text = matches.map(function (m) {
            return (m.game + " " + m.seed + " " + m.players.map(function (p) { return p[0] + " " + p[3]; }).join(" ")).toLowerCase();
        });
        function shown() {
            if (!state.filter) return matches.map(function (m, i) { return i; });
            var words = state.filter.toLowerCase().split(/\s+/).filter(Boolean), out = [];
            for (var i = 0; i < matches.length; i++)
                if (words.every(function (w) { return text[i].indexOf(w) >= 0; })) out.push(i);
            return out;
        }
        function render() {
            var list = shown(), pages = Math.max(1, Math.ceil(list.length / PAGE));
            state.page = Math.min(state.page, pages - 1);
            var rows = list.slice(state.page * PAGE, state.page * PAGE + PAGE).map(function (i) {
                var m = matches[i], link;
                if (m.id) {
                    link = el("a", "", m.id);
                    link.href = m.href;
                } else link = el("span", "", "(replay too large for a page) " + m.replay);
                var who = m.players.map(function (p) { return p[0] + " #" + p[1] + (p[3] !== "OK" ? " " + p[3] : ""); }).join(", ");
                return cells([link, m.game, who, m.rounds, m.seed]);
            });
            body.textContent = "";
            body.appendChild(table(["match", "game", "players (place, verdict)", "rounds", "seed"], rows));
            info.textContent = list.length + " shown · page " + (state.page + 1) + " of " + pages;
            prev.disabled = state.page === 0;
            next.disabled = state.page >= pages - 1;
        }
        input.addEventListener("input", function () { state.filter = input.value; state.page = 0; render(); });
        prev.addEventListener("click", function () { state.page--; render(); });
        next.addEventListener("click", function () { state.page++; render(); });
        render();
        return sec;
    }

    function start() {
        var app = document.getElementById("jr-app");
        var st = data("jr-standings"), audit = data("jr-audit"), matches = data("jr-matches") || [];
        /* A match's page: matches/F-L.html (matches F to L, jr-pages) showing it by ?m=ID. */
        var pages = data("jr-pages") || [], pageOf = byName();
        matches.forEach(function (m) {
            if (!m.id) return;
            m.href = "matches/" + encodeURIComponent(pages[m.page]) + "?m=" + encodeURIComponent(m.id);
            pageOf[m.replay] = m.href;
        });
        app.textContent = "";
        app.appendChild(el("h1", "", "Results"));
        app.appendChild(standingsSection(st, audit));
        app.appendChild(auditSection(audit, st, pageOf));
        app.appendChild(matchesSection(matches));
        document.body.dataset.state = "ready";
        window.__reportReadyAt = performance.now();   /* make bench reads it */
    }

    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
    else start();
})();
