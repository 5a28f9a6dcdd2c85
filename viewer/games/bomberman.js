/* bomberman.js - the bomberman field (bomberman.md, docs/replay-format.md "Bomberman events"):
 * walls, blocks, bombs with their timers, lava, bonuses and players, rebuilt from the header's
 * map and the events. Each step every lava part loses 1 of its live time (B7) and every bomb
 * 1 of its timer (B8) once the commands have run: the replay says so once, the viewer does it. */
"use strict";
var JV = window.JV || (window.JV = {});
JV.games = JV.games || {};

JV.games.bomberman = (function () {
    var AFTER_COMMANDS = {lava_decay: 1, boom: 1, block: 1, damage: 1, death: 1, status: 1, end: 1};

    function init(header) {
        var rows = String(header.map).split("\n").filter(function (l) { return l.length > 0; });
        var h = rows.length, w = rows[0] ? rows[0].length : 0, grid = [], hidden = {};
        for (var y = 0; y < h; y++) {
            var line = "";
            for (var x = 0; x < w; x++) {
                var c = rows[y][x];
                if (c === "a" || c === "r") hidden[(x + 1) + "," + (y + 1)] = c.toUpperCase();
                line += c === "#" ? "#" : c === "+" || c === "a" || c === "r" ? "+" : ".";
            }
            grid.push(line);
        }
        var n = header.players.length, players = [];
        for (var p = 0; p < n; p++) players.push([0, 0, 1, 0, 0, 0, 0, 0]);
        return {w: w, h: h, grid: grid, hidden: hidden, players: players, bombs: [], bonuses: [], lava: [],
                crashed: new Array(n).fill(false), phase: "", places: null,
                livetime: (header.params && header.params.lava_livetime) || 2};
    }

    function clone(s) {
        return {w: s.w, h: s.h, grid: s.grid.slice(), hidden: s.hidden, players: s.players.map(function (p) { return p.slice(); }),
                bombs: s.bombs.map(function (b) { return b.slice(); }), bonuses: s.bonuses.map(function (b) { return b.slice(); }),
                lava: s.lava.map(function (l) { return l.slice(); }), crashed: s.crashed.slice(), phase: s.phase,
                places: s.places, livetime: s.livetime};
    }

    function setCell(s, x, y, ch) {
        var row = s.grid[y - 1];
        s.grid[y - 1] = row.slice(0, x - 1) + ch + row.slice(x);
    }

    /* B7 and B8, once per step after the commands. */
    function tick(s) {
        s.lava = s.lava.filter(function (l) { l[3]--; return l[3] > 0; });
        for (var i = 0; i < s.bombs.length; i++) s.bombs[i][4]--;
        s.phase = "";
    }

    function apply(s, ev) {
        if (s.phase === "cmds" && AFTER_COMMANDS[ev.t]) tick(s);
        var i;
        switch (ev.t) {
        case "start":
            for (i = 0; i < ev.players.length; i++) {
                var q = ev.players[i];
                s.players[q.player - 1] = [q.x, q.y, 1, q.health, 0, q.bombs_max, q.bombs_left, q.radius];
            }
            break;
        case "crashed": s.crashed[ev.player - 1] = true; break;
        case "step": s.phase = "cmds"; break;
        case "cmd":
            var pl = s.players[ev.player - 1];
            pl[0] = ev.x;
            pl[1] = ev.y;
            if (ev.effect === "placed") { s.bombs.push([ev.x, ev.y, ev.player, ev.bomb.radius, ev.bomb.timer]); pl[6]--; }
            else if (ev.effect === "pickup-A" || ev.effect === "pickup-R")
                s.bonuses = s.bonuses.filter(function (b) { return b[0] !== ev.x || b[1] !== ev.y; });
            break;
        case "lava_decay":
            for (i = 0; i < ev.removed.length; i++) {
                var r = ev.removed[i];
                s.lava = s.lava.filter(function (l) { return l[0] !== r[0] || l[1] !== r[1] || l[2] !== r[2]; });
            }
            break;
        case "boom":
            s.bombs = s.bombs.filter(function (b) { return b[0] !== ev.x || b[1] !== ev.y; });
            for (i = 0; i < ev.cells.length; i++) {
                var c = ev.cells[i], found = false;
                for (var k = 0; k < s.lava.length; k++)
                    if (s.lava[k][0] === c[0] && s.lava[k][1] === c[1] && s.lava[k][2] === ev.owner) { s.lava[k][3] = s.livetime; found = true; }
                if (!found) s.lava.push([c[0], c[1], ev.owner, s.livetime]);
            }
            break;
        case "block":
            setCell(s, ev.x, ev.y, ".");
            if (ev.bonus) s.bonuses.push([ev.x, ev.y, ev.bonus]);
            break;
        case "damage": s.players[ev.player - 1][3] = ev.health; break;
        case "death": s.players[ev.player - 1][2] = 0; break;
        case "status":
            for (i = 0; i < ev.players.length; i++) s.players[i] = ev.players[i].slice();
            break;
        case "end":
            for (i = 0; i < ev.points.length; i++) s.players[i][4] = ev.points[i];
            s.places = ev.places.slice();
            break;
        }
    }

    function byYX(a, b) { return a[1] - b[1] || a[0] - b[0]; }

    function figures(s) {
        return {points: s.players.map(function (p) { return p[4]; }), health: s.players.map(function (p) { return p[3]; }),
                bombs: s.players.map(function (p) { return p[6] + "/" + p[5]; }), radius: s.players.map(function (p) { return p[7]; })};
    }

    /* What is drawn, in the words of the state a bot reads (docs/games/bomberman.md). */
    function model(s, view) {
        var players = s.players.map(function (p, i) { return [i + 1].concat(p).join(" "); });
        var bombs = s.bombs.slice().sort(byYX).map(function (b) { return b.join(" "); });
        var bonuses = s.bonuses.slice().sort(byYX).map(function (b) { return b.join(" "); });
        var lava = s.lava.slice().sort(function (a, b) { return byYX(a, b) || a[2] - b[2]; }).map(function (l) { return l.join(" "); });
        return {game: "bomberman", fog: view.fog || 0, map: s.grid.slice(), players: players, bombs: bombs, bonuses: bonuses, lava: lava};
    }

    function draw(canvas, s, frame, view, header, t) {
        var cell = JV.fitCanvas(canvas, s.w, s.h, 640, 640);
        var c = canvas.getContext("2d"), x, y, i;
        c.clearRect(0, 0, canvas.width, canvas.height);
        for (y = 0; y < s.h; y++)
            for (x = 0; x < s.w; x++) {
                var ch = s.grid[y][x], X = x * cell, Y = y * cell;
                c.fillStyle = ch === "#" ? "#3b3f4a" : ch === "+" ? "#b07a45" : "#e9e6dc";
                c.fillRect(X, Y, cell, cell);
                c.strokeStyle = "rgba(0,0,0,0.12)";
                c.strokeRect(X + 0.5, Y + 0.5, cell - 1, cell - 1);
                if (ch === "+") {
                    c.strokeStyle = "#8a5a2b";
                    c.strokeRect(X + 4.5, Y + 4.5, cell - 9, cell - 9);
                }
            }
        for (i = 0; i < s.lava.length; i++) {
            var l = s.lava[i];
            c.fillStyle = "rgba(230,70,20," + (0.25 + 0.5 * l[3] / s.livetime) + ")";
            c.fillRect((l[0] - 1) * cell + 2, (l[1] - 1) * cell + 2, cell - 4, cell - 4);
        }
        /* This step's flames, every bomb of a chain, fading as the step is shown. */
        for (var e = 0; frame && e < frame.events.length; e++) {
            var ev = frame.events[e];
            if (ev.t !== "boom") continue;
            c.fillStyle = "rgba(255,220,40," + (0.9 * (1 - 0.6 * t)) + ")";
            for (i = 0; i < ev.cells.length; i++) c.fillRect((ev.cells[i][0] - 1) * cell + 5, (ev.cells[i][1] - 1) * cell + 5, cell - 10, cell - 10);
        }
        for (i = 0; i < s.bonuses.length; i++) {
            var b = s.bonuses[i];
            c.fillStyle = b[2] === "A" ? "#1e88e5" : "#8e24aa";
            c.beginPath();
            c.arc((b[0] - 0.5) * cell, (b[1] - 0.5) * cell, cell * 0.25, 0, 7);
            c.fill();
            JV.label(c, b[2], (b[0] - 0.5) * cell, (b[1] - 0.5) * cell, cell * 0.3, "#fff");
        }
        for (i = 0; i < s.bombs.length; i++) {
            var bm = s.bombs[i];
            c.fillStyle = "#111";
            c.beginPath();
            c.arc((bm[0] - 0.5) * cell, (bm[1] - 0.5) * cell, cell * 0.3, 0, 7);
            c.fill();
            c.strokeStyle = JV.playerColor(bm[2]);
            c.lineWidth = 3;
            c.stroke();
            JV.label(c, String(bm[4]), (bm[0] - 0.5) * cell, (bm[1] - 0.5) * cell, cell * 0.32, "#d00");
        }
        for (i = 0; i < s.players.length; i++) {
            var p = s.players[i], px = (p[0] - 0.5) * cell, py = (p[1] - 0.5) * cell;
            if (!p[0]) continue;
            c.globalAlpha = p[2] ? 1 : 0.45;
            c.fillStyle = JV.playerColor(i + 1);
            c.beginPath();
            c.arc(px, py, cell * 0.36, 0, 7);
            c.fill();
            c.globalAlpha = 1;
            JV.label(c, p[2] ? String(i + 1) : "✕", px, py, cell * 0.4, "#000");
        }
        return cell;
    }

    function describe(frame, header) {
        var out = [];
        for (var e = 0; e < frame.events.length; e++) {
            var ev = frame.events[e], who = ev.player ? JV.playerName(header, ev.player) : "";
            if (ev.t === "cmd") out.push(who + ": " + ev.cmd + " → " + ev.effect + " (" + ev.x + "," + ev.y + ")");
            else if (ev.t === "boom") out.push("bomb of " + JV.playerName(header, ev.owner) + " explodes at " + ev.x + "," + ev.y + " (" + ev.cells.length + " cells)");
            else if (ev.t === "block") out.push("block at " + ev.x + "," + ev.y + " destroyed" + (ev.bonus ? ", bonus " + ev.bonus : ""));
            else if (ev.t === "damage") out.push(who + " is hurt: health " + ev.health);
            else if (ev.t === "death") out.push(who + " dies at " + ev.x + "," + ev.y + " (lava of " + ev.killers.map(function (k) { return JV.playerName(header, k); }).join(", ") + ")");
            else if (ev.t === "crashed") out.push(who + " crashed (" + ev.violation + ")");
            else if (ev.t === "end") out.push("game over (" + ev.reason + "): points " + ev.points.join(", "));
        }
        return out;
    }

    function marks(frame) {
        var out = [];
        for (var e = 0; e < frame.events.length; e++)
            if (frame.events[e].t === "death") out.push({kind: "death", player: frame.events[e].player});
        return out;
    }

    return {
        init: init, clone: clone, apply: apply, figures: figures, model: model, draw: draw, describe: describe,
        marks: marks, fog: false,
        columns: [{key: "points", title: "points"}, {key: "health", title: "health"}, {key: "bombs", title: "bombs"},
                  {key: "radius", title: "radius"}],
        charts: [{key: "points", title: "Points"}]
    };
})();
