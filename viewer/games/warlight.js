/* warlight.js - the warlight board (warlight.md): a wrapping grid of territories in bonus
 * regions, rebuilt each round from the "round" event and after each turn from the turn's
 * "cells"; the turn's deployments and attacks drawn over it. Ids are 0-based (player id + 1). */
"use strict";
var JV = window.JV || (window.JV = {});
JV.games = JV.games || {};

JV.games.warlight = (function () {
    function init(header) {
        var pr = header.params || {}, rows = pr.rows || 10, cols = pr.cols || 10, n = rows * cols;
        return {rows: rows, cols: cols, players: header.players.length, owner: new Int16Array(n).fill(-1),
                armies: new Float64Array(n), bonus: new Int16Array(n).fill(-1), bonusValue: [], round: 0, turn: 0,
                income: new Array(header.players.length).fill(0), points: new Array(header.players.length).fill(0),
                out: new Array(header.players.length).fill(false)};
    }

    function clone(s) {
        return {rows: s.rows, cols: s.cols, players: s.players, owner: s.owner.slice(), armies: s.armies.slice(),
                bonus: s.bonus.slice(), bonusValue: s.bonusValue.slice(), round: s.round, turn: s.turn,
                income: s.income.slice(), points: s.points.slice(), out: s.out.slice()};
    }

    function apply(s, ev, header) {
        var pr = header.params || {}, i;
        if (ev.t === "round") {
            s.round = ev.round;
            s.turn = 0;
            s.owner.fill(-1);
            s.armies.fill(pr.neutral_armies !== undefined ? pr.neutral_armies : 2);
            s.bonusValue = [];
            for (i = 0; i < ev.bonuses.length; i++) {
                var b = ev.bonuses[i];
                s.bonusValue[b.id] = b.value;
                for (var k = 0; k < b.cells.length; k++) s.bonus[b.cells[k][0] * s.cols + b.cells[k][1]] = b.id;
            }
            for (i = 0; i < ev.starts.length; i++) {
                var at = ev.starts[i][0] * s.cols + ev.starts[i][1];
                s.owner[at] = i;
                s.armies[at] = pr.start_armies !== undefined ? pr.start_armies : 5;
            }
            s.out.fill(false);
        } else if (ev.t === "turn") {
            s.turn = ev.turn;
            for (i = 0; i < ev.cells.length; i++) {
                var c = ev.cells[i], x = c[0] * s.cols + c[1];
                s.owner[x] = c[2];
                s.armies[x] = c[3];
            }
            for (i = 0; i < ev.players.length; i++) s.income[ev.players[i][0]] = ev.players[i][1];
            for (i = 0; i < (ev.out || []).length; i++) s.out[ev.out[i]] = true;
        } else if (ev.t === "endround") {
            for (i = 0; i < ev.points.length; i++) s.points[i] += ev.points[i];
        } else if (ev.t === "end") {
            s.points = ev.points.slice();
        }
    }

    function figures(s) {
        var land = new Array(s.players).fill(0);
        for (var x = 0; x < s.owner.length; x++) if (s.owner[x] >= 0 && s.owner[x] < s.players) land[s.owner[x]]++;
        return {territories: land, income: s.income.slice(), points: s.points.slice()};
    }

    /* What is drawn, in the words of the §10 log: each row's "owner,armies" entries. */
    function model(s, view) {
        var rows = [];
        for (var r = 0; r < s.rows; r++) {
            var parts = [];
            for (var c = 0; c < s.cols; c++) parts.push(s.owner[r * s.cols + c] + "," + s.armies[r * s.cols + c]);
            rows.push(parts.join(" "));
        }
        var f = figures(s), players = [];
        for (var p = 1; p <= s.players; p++)
            players.push({player: p, territories: f.territories[p - 1], income: f.income[p - 1], points: f.points[p - 1]});
        return {game: "warlight", fog: view.fog || 0, round: s.round, turn: s.turn, rows: rows, players: players};
    }

    function wrapDelta(d, n) {
        return ((d % n) + n + Math.floor(n / 2)) % n - Math.floor(n / 2);
    }

    function draw(canvas, s, frame, view, header, t) {
        var cell = JV.fitCanvas(canvas, s.cols, s.rows, 720, 620);
        var c = canvas.getContext("2d");
        c.clearRect(0, 0, canvas.width, canvas.height);
        for (var x = 0; x < s.owner.length; x++) {
            var i = Math.floor(x / s.cols), j = x % s.cols, X = j * cell, Y = i * cell, b = s.bonus[x];
            c.fillStyle = b >= 0 ? "hsl(" + ((b * 67) % 360) + ",45%,86%)" : "#eee";
            c.fillRect(X, Y, cell, cell);
            if (s.owner[x] >= 0) {
                c.fillStyle = JV.playerColor(s.owner[x] + 1);
                c.beginPath();
                c.arc(X + cell / 2, Y + cell / 2, cell * 0.36, 0, 7);
                c.fill();
            }
            JV.label(c, JV.shortNumber(s.armies[x]), X + cell / 2, Y + cell / 2, Math.max(8, cell * 0.3), s.owner[x] >= 0 ? "#000" : "#777");
            if (b >= 0 && cell >= 30 && (j === 0 || s.bonus[x - 1] !== b)) {
                c.font = "9px sans-serif";
                c.fillStyle = "#667";
                c.textAlign = "left";
                c.fillText("b" + b + "+" + s.bonusValue[b], X + 2, Y + 9);
            }
        }
        c.strokeStyle = "#334";
        c.lineWidth = 2.5;
        c.beginPath();
        for (x = 0; x < s.owner.length; x++) {
            i = Math.floor(x / s.cols); j = x % s.cols;
            if (j + 1 < s.cols && s.bonus[x] !== s.bonus[x + 1]) { c.moveTo((j + 1) * cell, i * cell); c.lineTo((j + 1) * cell, (i + 1) * cell); }
            if (i + 1 < s.rows && s.bonus[x] !== s.bonus[x + s.cols]) { c.moveTo(j * cell, (i + 1) * cell); c.lineTo((j + 1) * cell, (i + 1) * cell); }
        }
        c.stroke();
        for (var e = 0; frame && e < frame.events.length; e++) {
            var ev = frame.events[e];
            if (ev.t !== "turn") continue;
            for (var d = 0; d < ev.deploy.length; d++) {
                var dp = ev.deploy[d];
                JV.label(c, "+" + dp[3], (dp[2] + 0.82) * cell, (dp[1] + 0.2) * cell, Math.max(8, cell * 0.26), JV.playerColor(dp[0] + 1));
            }
            for (var m = 0; m < ev.moves.length; m++) {
                var mv = ev.moves[m];
                var dr = wrapDelta(mv[3] - mv[1], s.rows), dc = wrapDelta(mv[4] - mv[2], s.cols);
                var ax = (mv[2] + 0.5) * cell, ay = (mv[1] + 0.5) * cell;
                JV.arrow(c, ax, ay, ax + dc * cell * 0.8, ay + dr * cell * 0.8, t,
                         mv[7] === "capture" ? JV.playerColor(mv[0] + 1) : "rgba(60,60,60,0.7)", Math.max(2, cell / 14));
            }
        }
        return cell;
    }

    function describe(frame, header) {
        var out = [];
        for (var e = 0; e < frame.events.length; e++) {
            var ev = frame.events[e];
            if (ev.t === "round") out.push("round " + ev.round + " begins on a new board");
            else if (ev.t === "turn") {
                out.push("round " + ev.round + ", turn " + ev.turn + ": " + ev.deploy.length + " deployments, " + ev.moves.length + " moves");
                for (var p = 0; p < ev.players.length; p++)
                    out.push(JV.playerName(header, ev.players[p][0] + 1) + ": income " + ev.players[p][1] + ", " + ev.players[p][2] +
                             (ev.players[p][3] ? ", " + ev.players[p][3] + " commands dropped" : ""));
                for (var m = 0; m < ev.moves.length; m++) {
                    var mv = ev.moves[m];
                    out.push(JV.playerName(header, mv[0] + 1) + ": " + mv[1] + "," + mv[2] + " → " + mv[3] + "," + mv[4] + " with " + mv[5] + ": " + mv[7]);
                }
                for (var o = 0; o < (ev.out || []).length; o++) out.push(JV.playerName(header, ev.out[o] + 1) + " is out of the round");
            } else if (ev.t === "endround") out.push("round " + ev.round + " ends: points " + ev.points.join(", "));
            else if (ev.t === "end") out.push("match over: points " + ev.points.join(", "));
        }
        return out;
    }

    function marks(frame) {
        var out = [];
        for (var e = 0; e < frame.events.length; e++)
            if (frame.events[e].t === "turn")
                for (var o = 0; o < (frame.events[e].out || []).length; o++) out.push({kind: "elimination", player: frame.events[e].out[o] + 1});
        return out;
    }

    return {
        init: init, clone: clone, apply: apply, figures: figures, model: model, draw: draw, describe: describe,
        marks: marks, fog: false,
        columns: [{key: "territories", title: "land"}, {key: "income", title: "income"}, {key: "points", title: "points"}],
        charts: [{key: "territories", title: "Territories"}, {key: "income", title: "Income"}]
    };
})();
