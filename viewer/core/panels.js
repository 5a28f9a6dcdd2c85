/* panels.js - the text beside the board: the leaderboard, what happened in the frame, and
 * the violation panel (what the bot sent, the call, the limit and the figure, its stderr). */
"use strict";
var JV = window.JV || (window.JV = {});

JV.el = function (tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
};

JV.playerName = function (header, p) {
    var pl = header.players[p - 1];
    return pl && pl.name ? pl.name : "player " + p;
};

JV.renderLeaderboard = function (table, app, figures) {
    var header = app.replay.header, result = app.replay.result, game = app.game;
    table.textContent = "";
    var head = JV.el("tr");
    ["", "player"].concat(game.columns.map(function (c) { return c.title; }), ["verdict", "place"]).forEach(function (h) {
        head.appendChild(JV.el("th", "", h));
    });
    table.appendChild(head);
    for (var p = 1; p <= header.players.length; p++) {
        var tr = JV.el("tr", "jv-player" + (app.view.fog === p ? " jv-selected" : ""));
        tr.dataset.player = String(p);
        var sw = JV.el("td");
        var dot = JV.el("span", "jv-swatch");
        dot.style.background = JV.playerColor(p);
        sw.appendChild(dot);
        tr.appendChild(sw);
        tr.appendChild(JV.el("td", "jv-name", JV.playerName(header, p)));
        for (var c = 0; c < game.columns.length; c++) {
            var col = figures[game.columns[c].key];
            tr.appendChild(JV.el("td", "jv-num", col ? String(col[p - 1]) : ""));
        }
        var rp = result.players[p - 1] || {};
        tr.appendChild(JV.el("td", rp.verdict === "OK" ? "" : "jv-bad", rp.verdict || ""));
        tr.appendChild(JV.el("td", "jv-num", rp.place !== undefined ? String(rp.place) : ""));
        if (game.fog) {
            tr.title = "show the board as player " + p + " saw it (click again for everything)";
            tr.addEventListener("click", app.toggleFog.bind(app, p));
        }
        table.appendChild(tr);
    }
};

JV.nsText = function (ns) {
    return (ns / 1e6).toFixed(ns < 1e7 ? 2 : 0) + " ms";
};

JV.bytesText = function (b) {
    return (b / 1048576).toFixed(1) + " MiB";
};

JV.violationBox = function (v, app, frame) {
    var header = app.replay.header;
    var box = JV.el("div", "jv-violation");
    box.dataset.player = String(v.player);
    box.appendChild(JV.el("h3", "", JV.playerName(header, v.player) + " (player " + v.player + "): " + v.verdict));
    var dl = JV.el("dl");
    function row(k, val, pre) {
        dl.appendChild(JV.el("dt", "", k));
        var dd = JV.el("dd");
        dd.appendChild(JV.el(pre ? "pre" : "span", "", val));
        dl.appendChild(dd);
    }
    var ev = v.evidence || {};
    row("where", "round " + v.round + ", its reply " + v.reply + " (" + v.kind + ", found by the " + v.by + ")");
    if (ev.reason) row("reason", ev.reason);
    var line = ev.line;
    if (line === undefined && v.by === "game")
        for (var i = 0; i < frame.replies.length; i++)
            if (frame.replies[i].player === v.player && frame.replies[i].reply === v.reply) line = frame.replies[i].line;
    if (line !== undefined) row("the bot sent", line === "" ? "(an empty line)" : line, true);
    if (ev.syscall) row("forbidden call", ev.syscall.name + "(" + (ev.syscall.args || []).join(", ") + ")  [" + ev.syscall.arch + " #" + ev.syscall.nr + "]", true);
    if (ev.limit_ns !== undefined) row("limit / figure", JV.nsText(ev.limit_ns) + " / " + JV.nsText(ev.figure_ns));
    if (ev.limit_bytes !== undefined) row("limit / figure", JV.bytesText(ev.limit_bytes) + " / " + (ev.figure_bytes !== undefined ? JV.bytesText(ev.figure_bytes) : "?"));
    if (v.stderr_tail) row("stderr (tail)", v.stderr_tail, true);
    row("check it", "judge replay verify " + app.fileName, true);
    box.appendChild(dl);
    return box;
};

JV.renderViolations = function (panel, app, frame) {
    panel.textContent = "";
    for (var i = 0; i < frame.violations.length; i++) panel.appendChild(JV.violationBox(frame.violations[i], app, frame));
    panel.hidden = frame.violations.length === 0;
};

JV.renderEvents = function (list, app, frame) {
    list.textContent = "";
    var header = app.replay.header;
    for (var r = 0; r < frame.replies.length; r++) {
        var rep = frame.replies[r];
        list.appendChild(JV.el("li", "jv-reply", JV.playerName(header, rep.player) + " replied: " +
            (rep.line.length > 120 ? rep.line.slice(0, 120) + "…" : rep.line)));
    }
    var lines = app.game.describe(frame, header);
    for (var i = 0; i < lines.length; i++) list.appendChild(JV.el("li", "", lines[i]));
};
