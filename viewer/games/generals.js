/* generals.js - the generals board (generals.md): cells from the header's map, then every
 * event's "cells" and the growth rule the event names. Fog follows G14 (vision_radius). */
"use strict";
var JV = window.JV || (window.JV = {});
JV.games = JV.games || {};

JV.games.generals = (function () {
    var EMPTY = 1, CITY = 2, CAPITAL = 3, MOUNTAIN = 4;

    function parseMap(text) {
        var tok = String(text).trim().split(/\s+/).map(Number);
        var rows = tok[0], cols = tok[1], k = tok[2], at = 3;
        var s = {rows: rows, cols: cols, players: k, type: new Int8Array(rows * cols),
                 owner: new Int16Array(rows * cols), units: new Float64Array(rows * cols),
                 alive: [], order: []};
        for (var c = 0; c < rows * cols; c++) {
            var t = tok[at++];
            s.type[c] = t;
            if (t === CITY) s.units[c] = tok[at++];
        }
        for (var p = 0; p <= k; p++) s.alive.push(p > 0);
        return s;
    }

    function init(header) {
        var s = parseMap(header.map);
        s.players = header.players.length;
        while (s.alive.length <= s.players) s.alive.push(true);
        return s;
    }

    function clone(s) {
        return {rows: s.rows, cols: s.cols, players: s.players, type: s.type.slice(), owner: s.owner.slice(),
                units: s.units.slice(), alive: s.alive.slice(), order: s.order.slice()};
    }

    function apply(s, ev) {
        if (ev.cells)
            for (var i = 0; i < ev.cells.length; i++) {
                var c = ev.cells[i], at = (c[0] - 1) * s.cols + (c[1] - 1);
                s.type[at] = c[2];
                s.owner[at] = c[3];
                s.units[at] = c[4];
            }
        if (ev.t === "start") s.order = ev.order.slice();
        else if (ev.t === "eliminated") s.alive[ev.player] = false;
        else if (ev.t === "growth")
            for (var x = 0; x < s.type.length; x++) {
                if (s.owner[x] <= 0) continue;
                if (s.type[x] === CITY || s.type[x] === CAPITAL) s.units[x] += ev.cities;
                else if (s.type[x] === EMPTY) s.units[x] += ev.land;
            }
    }

    function figures(s) {
        var army = [], land = [];
        for (var p = 0; p < s.players; p++) { army.push(0); land.push(0); }
        for (var x = 0; x < s.type.length; x++)
            if (s.type[x] !== MOUNTAIN && s.owner[x] > 0) {
                army[s.owner[x] - 1] += s.units[x];
                land[s.owner[x] - 1] += 1;
            }
        return {army: army, land: land};
    }

    /* visible[x] for player p (G14): some cell p owns within Chebyshev distance r. */
    function vision(s, p, r) {
        var seen = new Uint8Array(s.type.length);
        for (var x = 0; x < s.type.length; x++) {
            if (s.type[x] === MOUNTAIN || s.owner[x] !== p) continue;
            var i = Math.floor(x / s.cols), j = x % s.cols;
            for (var a = Math.max(0, i - r); a <= Math.min(s.rows - 1, i + r); a++)
                for (var b = Math.max(0, j - r); b <= Math.min(s.cols - 1, j + r); b++) seen[a * s.cols + b] = 1;
        }
        return seen;
    }

    function radius(header) {
        var r = header.params && header.params.vision_radius;
        return typeof r === "number" ? r : 1;
    }

    /* What is drawn, cell by cell, in the words of the bot protocol (generals.md §5):
     * [1, t, owner, units] or [1, 4] when visible, [0, 1] or [0, 2] when hidden. */
    function model(s, view, header) {
        var seen = view.fog > 0 ? vision(s, view.fog, radius(header)) : null;
        var cells = [];
        for (var x = 0; x < s.type.length; x++) {
            var t = s.type[x];
            if (seen && !seen[x]) cells.push([0, t === CITY || t === MOUNTAIN ? 2 : 1]);
            else if (t === MOUNTAIN) cells.push([1, 4]);
            else cells.push([1, t, s.owner[x], s.units[x]]);
        }
        var f = figures(s), players = [];
        for (var p = 1; p <= s.players; p++)
            players.push({player: p, army: f.army[p - 1], land: f.land[p - 1], alive: s.alive[p]});
        return {game: "generals", rows: s.rows, cols: s.cols, fog: view.fog || 0, cells: cells, players: players};
    }

    /* Batched by colour, one font for every number: a 50 x 50 board is 2500 cells a frame. */
    function draw(canvas, s, frame, view, header, t) {
        var cell = JV.fitCanvas(canvas, s.cols, s.rows, 860, 620);
        var c = canvas.getContext("2d"), n = s.type.length, x, X, Y, ty;
        var seen = view.fog > 0 ? vision(s, view.fog, radius(header)) : null;
        var groups = {};
        function colorOf(i) {
            if (seen && !seen[i]) return "#3a3a3a";
            if (s.type[i] === MOUNTAIN) return "#6b6b6b";
            return s.owner[i] > 0 ? JV.playerColor(s.owner[i]) : "#e8e4da";
        }
        for (x = 0; x < n; x++) (groups[colorOf(x)] = groups[colorOf(x)] || []).push(x);
        c.clearRect(0, 0, canvas.width, canvas.height);
        Object.keys(groups).forEach(function (color) {
            c.fillStyle = color;
            var list = groups[color];
            for (var k = 0; k < list.length; k++) c.fillRect((list[k] % s.cols) * cell, Math.floor(list[k] / s.cols) * cell, cell, cell);
        });
        c.strokeStyle = "rgba(0,0,0,0.18)";
        c.lineWidth = 1;
        c.beginPath();
        for (x = 0; x <= s.cols; x++) { c.moveTo(x * cell + 0.5, 0); c.lineTo(x * cell + 0.5, s.rows * cell); }
        for (x = 0; x <= s.rows; x++) { c.moveTo(0, x * cell + 0.5); c.lineTo(s.cols * cell, x * cell + 0.5); }
        c.stroke();
        /* Hidden cities and mountains show as obstacles; visible mountains, cities, capitals. */
        c.fillStyle = "#555";
        for (x = 0; x < n; x++) {
            ty = s.type[x];
            if (seen && !seen[x] && (ty === CITY || ty === MOUNTAIN))
                c.fillRect((x % s.cols) * cell + cell * 0.3, Math.floor(x / s.cols) * cell + cell * 0.3, cell * 0.4, cell * 0.4);
        }
        c.fillStyle = "#444";
        c.beginPath();
        for (x = 0; x < n; x++) {
            if (s.type[x] !== MOUNTAIN || (seen && !seen[x])) continue;
            X = (x % s.cols) * cell; Y = Math.floor(x / s.cols) * cell;
            c.moveTo(X + cell * 0.15, Y + cell * 0.85);
            c.lineTo(X + cell * 0.5, Y + cell * 0.15);
            c.lineTo(X + cell * 0.85, Y + cell * 0.85);
            c.closePath();
        }
        c.fill();
        c.lineWidth = Math.max(2, cell / 10);
        for (x = 0; x < n; x++) {
            ty = s.type[x];
            if ((ty !== CITY && ty !== CAPITAL) || (seen && !seen[x])) continue;
            X = (x % s.cols) * cell; Y = Math.floor(x / s.cols) * cell;
            c.strokeStyle = ty === CAPITAL ? "#ffd700" : "#222";
            c.strokeRect(X + cell * 0.12, Y + cell * 0.12, cell * 0.76, cell * 0.76);
            if (ty === CAPITAL) {
                c.fillStyle = "#ffd700";
                c.fillRect(X + cell * 0.4, Y + cell * 0.14, cell * 0.2, cell * 0.14);
            }
        }
        if (cell >= 12) {
            c.font = "bold " + Math.max(8, Math.round(cell * 0.38)) + "px sans-serif";
            c.textAlign = "center";
            c.textBaseline = "middle";
            c.fillStyle = "#111";
            for (x = 0; x < n; x++) {
                if (s.units[x] <= 0 || s.type[x] === MOUNTAIN || (seen && !seen[x])) continue;
                c.fillText(JV.shortNumber(s.units[x]), (x % s.cols + 0.5) * cell, (Math.floor(x / s.cols) + 0.5) * cell);
            }
        }
        for (var e = 0; frame && e < frame.events.length; e++) {
            var ev = frame.events[e];
            if (ev.t !== "move" || !ev.move) continue;
            var m = ev.move;
            var ax = (m[2] - 0.5) * cell, ay = (m[1] - 0.5) * cell, bx = (m[4] - 0.5) * cell, by = (m[3] - 0.5) * cell;
            JV.arrow(c, ax, ay, ax + (bx - ax) * 0.9, ay + (by - ay) * 0.9, t, "rgba(0,0,0,0.8)", Math.max(2, cell / 8));
        }
        return cell;
    }

    function describe(frame) {
        var out = [];
        for (var e = 0; e < frame.events.length; e++) {
            var ev = frame.events[e];
            if (ev.t === "move") out.push("player " + ev.player + " moves " + ev.move.join(" "));
            else if (ev.t === "pass") out.push("player " + ev.player + " passes");
            else if (ev.t === "eliminated") out.push("player " + ev.player + " is eliminated (" + ev.by + (ev.capturer ? " by player " + ev.capturer : "") + ")");
            else if (ev.t === "growth") out.push("growth: cities +" + ev.cities + ", land +" + ev.land);
            else if (ev.t === "end") out.push("game over (" + ev.reason + ")");
            else if (ev.t === "start") out.push("turn order " + ev.order.join(", "));
        }
        return out;
    }

    function marks(frame) {
        var out = [];
        for (var e = 0; e < frame.events.length; e++)
            if (frame.events[e].t === "eliminated") out.push({kind: "elimination", player: frame.events[e].player});
        return out;
    }

    return {
        init: init, clone: clone, apply: apply, figures: figures, model: model, draw: draw,
        describe: describe, marks: marks, fog: true,
        columns: [{key: "army", title: "army"}, {key: "land", title: "land"}],
        charts: [{key: "army", title: "Army"}, {key: "land", title: "Land"}]
    };
})();
