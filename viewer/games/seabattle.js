/* seabattle.js - both boards of a sea battle (seabattle.md): each fleet as its bot sent it
 * (a "board" event), every shot with its result. A shot (x, y) is column x, row y, 1-based. */
"use strict";
var JV = window.JV || (window.JV = {});
JV.games = JV.games || {};

JV.games.seabattle = (function () {
    var SIZE = 10, MISS = 1, HIT = 2, SUNK = 3;
    var CODE = {miss: MISS, hit: HIT, sunk: SUNK};

    function init(header) {
        return {boards: [null, null, null], marks: [null, new Int8Array(SIZE * SIZE), new Int8Array(SIZE * SIZE)],
                shots: [], fired: [0, 0, 0], hits: [0, 0, 0], sunk: [0, 0, 0], invalid: [null, null, null],
                end: null, players: header.players.length};
    }

    function clone(s) {
        return {boards: s.boards.slice(), marks: [null, s.marks[1].slice(), s.marks[2].slice()], shots: s.shots.slice(),
                fired: s.fired.slice(), hits: s.hits.slice(), sunk: s.sunk.slice(), invalid: s.invalid.slice(),
                end: s.end, players: s.players};
    }

    /* A sunk ship: every ship cell joined to (r, c) on the target's own board is drawn sunk. */
    function markSunk(s, target, r, c) {
        var board = s.boards[target], stack = [[r, c]];
        if (!board) return;
        while (stack.length) {
            var rc = stack.pop(), i = rc[0], j = rc[1];
            if (i < 0 || j < 0 || i >= SIZE || j >= SIZE || board[i][j] !== "#" || s.marks[target][i * SIZE + j] === SUNK) continue;
            s.marks[target][i * SIZE + j] = SUNK;
            stack.push([i + 1, j], [i - 1, j], [i, j + 1], [i, j - 1]);
        }
    }

    function apply(s, ev) {
        if (ev.t === "board") s.boards[ev.player] = ev.board.slice();
        else if (ev.t === "board_invalid") s.invalid[ev.player] = ev.by + (ev.rule ? " (rule " + ev.rule + ")" : "");
        else if (ev.t === "shot") {
            var target = 3 - ev.player, r = ev.y - 1, c = ev.x - 1;
            s.shots.push([ev.player, ev.x, ev.y, ev.result]);
            s.fired[ev.player]++;
            if (ev.result !== "miss") s.hits[ev.player]++;
            if (r >= 0 && r < SIZE && c >= 0 && c < SIZE) {
                if (s.marks[target][r * SIZE + c] !== SUNK) s.marks[target][r * SIZE + c] = CODE[ev.result] || MISS;
                if (ev.result === "sunk") { s.sunk[ev.player]++; markSunk(s, target, r, c); }
            }
        } else if (ev.t === "end") s.end = ev;
    }

    function figures(s) {
        return {shots: [s.fired[1], s.fired[2]], hits: [s.hits[1], s.hits[2]], sunk: [s.sunk[1], s.sunk[2]]};
    }

    /* A fleet is shown unless the view hides fleets, or looks through the other player's eyes. */
    function fleetShown(view, p) {
        if (view.fog) return view.fog === p;
        return view.fleets !== false;
    }

    function model(s, view) {
        var boards = [];
        for (var p = 1; p <= 2; p++)
            boards.push({player: p, fleet: fleetShown(view, p) ? s.boards[p] : null, invalid: s.invalid[p],
                         shots: s.shots.filter(function (sh) { return sh[0] === 3 - p; })});
        var f = figures(s), players = [];
        for (p = 1; p <= 2; p++) players.push({player: p, shots: f.shots[p - 1], hits: f.hits[p - 1], sunk: f.sunk[p - 1]});
        return {game: "seabattle", fog: view.fog || 0, fleets: view.fleets !== false, boards: boards, players: players};
    }

    function draw(canvas, s, frame, view, header, t) {
        var cell = 30, gap = 40, top = 24, w = SIZE * cell * 2 + gap, h = SIZE * cell + top + 4;
        if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
        var c = canvas.getContext("2d");
        c.clearRect(0, 0, w, h);
        var lastShot = null;
        for (var e = 0; frame && e < frame.events.length; e++) if (frame.events[e].t === "shot") lastShot = frame.events[e];
        for (var p = 1; p <= 2; p++) {
            var ox = (p - 1) * (SIZE * cell + gap), board = s.boards[p], shown = fleetShown(view, p);
            JV.label(c, JV.playerName(header, p) + "'s fleet" + (s.invalid[p] ? " — invalid board: " + s.invalid[p] : ""),
                     ox + SIZE * cell / 2, 11, 13, JV.playerColor(p));
            for (var i = 0; i < SIZE; i++)
                for (var j = 0; j < SIZE; j++) {
                    var X = ox + j * cell, Y = top + i * cell, m = s.marks[p][i * SIZE + j];
                    var ship = board && board[i] && board[i][j] === "#";
                    c.fillStyle = m === SUNK ? "#5a1010" : m === HIT ? "#e0402a" : ship && shown ? "#7d8797" : "#cfe3f3";
                    c.fillRect(X, Y, cell, cell);
                    c.strokeStyle = "#8aa9c4";
                    c.lineWidth = 1;
                    c.strokeRect(X + 0.5, Y + 0.5, cell - 1, cell - 1);
                    if (m === MISS) {
                        c.fillStyle = "#345";
                        c.beginPath();
                        c.arc(X + cell / 2, Y + cell / 2, cell * 0.12, 0, 7);
                        c.fill();
                    } else if (m === HIT || m === SUNK) {
                        c.strokeStyle = "#fff";
                        c.lineWidth = 2;
                        c.beginPath();
                        c.moveTo(X + 7, Y + 7); c.lineTo(X + cell - 7, Y + cell - 7);
                        c.moveTo(X + cell - 7, Y + 7); c.lineTo(X + 7, Y + cell - 7);
                        c.stroke();
                    }
                }
            if (lastShot && 3 - lastShot.player === p && t < 1) {
                c.strokeStyle = "rgba(255,200,0," + (1 - t) + ")";
                c.lineWidth = 3;
                c.beginPath();
                c.arc(ox + (lastShot.x - 0.5) * cell, top + (lastShot.y - 0.5) * cell, cell * (0.3 + 1.2 * (1 - t)), 0, 7);
                c.stroke();
            }
        }
        return cell;
    }

    function describe(frame, header) {
        var out = [];
        for (var e = 0; e < frame.events.length; e++) {
            var ev = frame.events[e];
            if (ev.t === "board") out.push(JV.playerName(header, ev.player) + " placed its fleet");
            else if (ev.t === "board_invalid") out.push(JV.playerName(header, ev.player) + "'s board is refused (" + ev.by + (ev.rule ? ", rule " + ev.rule : "") + ")");
            else if (ev.t === "shot") out.push(JV.playerName(header, ev.player) + " shoots column " + ev.x + ", row " + ev.y + ": " + ev.result);
            else if (ev.t === "end") out.push("game over (" + ev.reason + ")" + (ev.winner ? ": " + JV.playerName(header, ev.winner) + " wins" : ": draw"));
        }
        return out;
    }

    function marks(frame) {
        var out = [];
        for (var e = 0; e < frame.events.length; e++)
            if (frame.events[e].t === "board_invalid") out.push({kind: "elimination", player: frame.events[e].player});
        return out;
    }

    function options(app) {
        var box = JV.el("div", "jv-options"), label = JV.el("label"), box2 = JV.el("input");
        box2.type = "checkbox";
        box2.checked = true;
        box2.id = "jv-fleets";
        box2.addEventListener("change", function () { app.view.fleets = box2.checked; app.render(); });
        label.appendChild(box2);
        label.appendChild(document.createTextNode(" show both fleets"));
        box.appendChild(label);
        return box;
    }

    return {
        init: init, clone: clone, apply: apply, figures: figures, model: model, draw: draw, describe: describe,
        marks: marks, options: options, fog: true,
        columns: [{key: "shots", title: "shots"}, {key: "hits", title: "hits"}, {key: "sunk", title: "sunk"}],
        charts: [{key: "hits", title: "Hits"}]
    };
})();
