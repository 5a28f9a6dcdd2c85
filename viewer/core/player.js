/* player.js - the viewer: board, controls (Space, arrows, Home/End, digits), the slider with
 * its marks, the turn in the URL (#turn=N, #turn=end), charts, panels, and the data model
 * the browser tests read (window.__viewer). */
"use strict";
var JV = window.JV || (window.JV = {});

JV.SPEEDS = [1, 2, 4, 8, 15, 30, 60, 120, 240];   /* frames per second for digits 1..9 */

JV.App = function (root, replay, fileName) {
    this.root = root;
    this.replay = replay;
    this.fileName = fileName || "REPLAY.jsonl.gz";
    this.game = JV.games[replay.header.game];
    this.timeline = new JV.Timeline(replay);
    this.view = {fog: 0, fleets: true};
    this.frame = 0;
    this.playing = false;
    this.speed = 4;
    this.anim = {start: 0, duration: 0};
    this.charts = [];
    this.build();
    this.go(this.frameFromHash(), false);
};

JV.App.prototype.build = function () {
    var self = this, h = this.replay.header, r = this.replay.result;
    this.root.textContent = "";
    this.root.dataset.game = h.game;
    var title = JV.el("header", "jv-title");
    title.appendChild(JV.el("h1", "", h.game + ": " + h.players.map(function (p) { return p.name; }).join(" vs ")));
    var outcome = r.draw ? "draw" : r.winner ? JV.playerName(h, r.winner) + " wins" : "no winner";
    title.appendChild(JV.el("p", "", outcome + " after " + r.rounds + " rounds, " + r.replies + " replies · seed " + h.seed +
        (h.match_id ? " · match " + h.match_id : "") + " · " + this.fileName));
    this.root.appendChild(title);

    var main = JV.el("div", "jv-main");
    var left = JV.el("div", "jv-left");
    this.canvas = JV.el("canvas", "jv-board");
    left.appendChild(this.canvas);
    left.appendChild(this.buildControls());
    main.appendChild(left);
    var side = JV.el("aside", "jv-side");
    this.turnLabel = JV.el("div", "jv-turn");
    side.appendChild(this.turnLabel);
    this.board = JV.el("table", "jv-leaderboard");
    side.appendChild(this.board);
    if (this.game.fog) side.appendChild(JV.el("p", "jv-hint", "Click a player to see the board as it saw it; click again for everything."));
    if (this.game.options) side.appendChild(this.game.options(this));
    this.violations = JV.el("section", "jv-violations");
    side.appendChild(this.violations);
    this.events = JV.el("ul", "jv-events");
    side.appendChild(this.events);
    main.appendChild(side);
    this.root.appendChild(main);

    this.chartBox = JV.el("section", "jv-charts");
    this.root.appendChild(this.chartBox);
    this.buildCharts();
    this.canvas.addEventListener("click", function () { self.togglePlay(); });
};

JV.App.prototype.buttons = function (bar) {
    var self = this;
    var spec = [["|◀", "first turn (Home)", function () { self.pause(); self.go(0, false); }],
                ["◀", "step back (←)", function () { self.pause(); self.go(self.frame - 1, true); }],
                ["play", "play / pause (Space)", function () { self.togglePlay(); }],
                ["▶", "step (→)", function () { self.pause(); self.go(self.frame + 1, true); }],
                ["▶|", "last turn (End)", function () { self.pause(); self.go(self.timeline.last(), false); }]];
    spec.forEach(function (s) {
        var b = JV.el("button", "jv-btn", s[0]);
        b.title = s[1];
        b.addEventListener("click", s[2]);
        bar.appendChild(b);
        if (s[0] === "play") self.playButton = b;
    });
};

JV.App.prototype.buildControls = function () {
    var self = this, box = JV.el("div", "jv-controls");
    var bar = JV.el("div", "jv-buttons");
    this.buttons(bar);
    this.speedLabel = JV.el("span", "jv-speed");
    bar.appendChild(this.speedLabel);
    box.appendChild(bar);
    var track = JV.el("div", "jv-track");
    this.slider = JV.el("input", "jv-slider");
    this.slider.type = "range";
    this.slider.min = "0";
    this.slider.max = String(this.timeline.last());
    this.slider.addEventListener("input", function () { self.pause(); self.go(Number(self.slider.value), false); });
    track.appendChild(this.slider);
    this.marks = JV.el("div", "jv-marks");
    track.appendChild(this.marks);
    box.appendChild(track);
    this.buildMarks();
    return box;
};

/* Violations (red), eliminations (orange) and deaths (black) on the slider's track. */
JV.App.prototype.buildMarks = function () {
    var frames = this.timeline.frames, last = Math.max(1, this.timeline.last()), self = this;
    this.markList = [];
    for (var f = 0; f < frames.length; f++) {
        var list = [];
        for (var v = 0; v < frames[f].violations.length; v++)
            list.push({kind: "violation", player: frames[f].violations[v].player, text: frames[f].violations[v].verdict});
        list = list.concat(this.game.marks(frames[f]));
        for (var i = 0; i < list.length; i++) {
            var m = JV.el("span", "jv-mark jv-mark-" + list[i].kind);
            m.style.left = (f / last * 100) + "%";
            m.title = "turn " + f + ": " + list[i].kind + " of " + JV.playerName(this.replay.header, list[i].player) + (list[i].text ? " (" + list[i].text + ")" : "");
            m.dataset.frame = String(f);
            m.addEventListener("click", function (ev) { self.pause(); self.go(Number(ev.target.dataset.frame), false); });
            this.marks.appendChild(m);
            this.markList.push({frame: f, kind: list[i].kind, player: list[i].player});
        }
    }
};

JV.App.prototype.buildCharts = function () {
    var self = this, tl = this.timeline, players = this.replay.header.players.length;
    this.game.charts.forEach(function (spec) {
        var series = [];
        for (var p = 1; p <= players; p++) {
            var pts = [];
            for (var f = 0; f < tl.figures.length; f++) pts.push({x: f, y: tl.figures[f][spec.key][p - 1], frame: f});
            series.push({name: JV.playerName(self.replay.header, p), color: JV.playerColor(p), points: pts});
        }
        self.charts.push(new JV.Chart(self.chartBox, {title: spec.title + " by turn", series: series, xUnit: "turns",
            cursorByFrame: true, onPick: function (pt) { self.pause(); self.go(pt.frame, false); }}));
    });
    this.cpu = JV.cpuSeries(this.replay, tl);
    var c = new JV.Chart(this.chartBox, {title: this.cpu.title, series: this.cpu.series, lines: this.cpu.lines, yUnit: "ms", logWhenFar: true,
        xUnit: "replies", onPick: function (pt) { self.pause(); self.go(pt.frame, false); }});
    c.cpuChart = true;
    this.charts.push(c);
};

/* Each player's CPU time after every reply against the budget of README C7 (2 s + 1 ms per
 * reply), or, in a game without a budget, each reply's wall time against the wall limit. */
JV.cpuSeries = function (replay, tl) {
    var h = replay.header, lim = h.limits || {}, budget = lim.budget_base_ms > 0;
    var series = [], maxJ = 1, p, players = h.players.length;
    var viol = {};
    for (var i = 0; i < replay.lines.length; i++) {
        var l = replay.lines[i];
        if (l.type === "violation" && l.kind === "time" && l.evidence && l.evidence.figure_ns !== undefined)
            (viol[l.player] = viol[l.player] || []).push({x: l.reply, y: l.evidence.figure_ns});
    }
    for (p = 1; p <= players; p++) series.push({name: JV.playerName(h, p), color: JV.playerColor(p), points: [], marks: viol[p] || []});
    for (i = 0; i < replay.lines.length; i++) {
        l = replay.lines[i];
        if (l.type !== "reply") continue;
        var y = budget ? l.cpu_ns : l.wall_ns;
        series[l.player - 1].points.push({x: l.reply, y: y, frame: tl.frameOfReply(l.player, l.reply), player: l.player});
        maxJ = Math.max(maxJ, l.reply);
    }
    if (budget)
        for (p = 1; p <= players; p++) {
            var rp = replay.result.players[p - 1], pts = series[p - 1].points;
            var lastX = pts.length ? pts[pts.length - 1].x : 0;
            if (rp && typeof rp.cpu_ns === "number")
                pts.push({x: lastX, y: rp.cpu_ns, frame: tl.last(), player: p, total: true});
        }
    var lines = [];
    if (budget) {
        var b = lim.budget_base_ms * 1e6, per = lim.budget_per_move_ms * 1e6;
        lines.push({name: "budget", color: "#d00", points: [{x: 1, y: b + per}, {x: maxJ, y: b + per * maxJ}]});
    } else if (lim.move_wall_ms > 0) {
        lines.push({name: "wall limit", color: "#d00", points: [{x: 1, y: lim.move_wall_ms * 1e6}, {x: maxJ, y: lim.move_wall_ms * 1e6}]});
    }
    return {budget: budget, series: series, lines: lines,
            title: budget ? "CPU time after each reply (dashed: the budget, 2 s + 1 ms per reply)"
                          : "Wall time of each reply (dashed: the wall limit; this game has no CPU budget)"};
};

/* #turn=N, #turn=end, or #player=P&reply=J (the frame of player P's reply J, README C7). */
JV.App.prototype.frameFromHash = function () {
    var h = window.location.hash, m = /(?:^#|&)turn=(end|\d+)/.exec(h);
    var p = /(?:^#|&)player=(\d+)/.exec(h), j = /(?:^#|&)reply=(\d+)/.exec(h);
    if (!m && p && j) return Math.max(0, this.timeline.frameOfReply(Number(p[1]), Number(j[1])));
    if (!m) return 0;
    return m[1] === "end" ? this.timeline.last() : Math.min(Number(m[1]), this.timeline.last());
};

/* The URL follows the shown turn; at most 4 writes a second, because browsers throttle
 * history.replaceState (Chromium warns past 100 calls in 10 s) and playback is faster. */
JV.App.prototype.writeHash = function (now_) {
    var self = this, now = performance.now();
    clearTimeout(this.hashTimer);
    if (!now_ && this.lastHashWrite && now - this.lastHashWrite < 250) {
        this.hashTimer = setTimeout(function () { self.writeHash(); }, 250 - (now - this.lastHashWrite));
        return;
    }
    var want = "#turn=" + this.frame, current = window.location.hash;
    if (this.hashWritten !== undefined && current !== this.hashWritten && current !== want &&
        this.frameFromHash() !== this.frame) {
        this.onHash();   /* the URL was changed since our last write (a user, a link): it wins */
        return;
    }
    if (current !== want) {
        history.replaceState(null, "", want);
        this.lastHashWrite = now;
        this.hashWritten = want;
    }
};

JV.App.prototype.go = function (f, animate) {
    f = Math.max(0, Math.min(this.timeline.last(), Math.round(f)));
    this.frame = f;
    this.anim = animate ? {start: performance.now(), duration: this.playing ? Math.min(300, 800 / JV.SPEEDS[this.speed - 1]) : 300}
                        : {start: 0, duration: 0};
    this.writeHash();
    this.render();
};

JV.App.prototype.progress = function () {
    if (!this.anim.duration) return 1;
    return Math.min(1, (performance.now() - this.anim.start) / this.anim.duration);
};

JV.App.prototype.render = function () {
    var state = this.timeline.stateAt(this.frame), frame = this.timeline.frames[this.frame], h = this.replay.header;
    var t = this.progress();
    this.game.draw(this.canvas, state, frame, this.view, h, t);
    if (t < 1 && !this.rafPending) {
        var self = this;
        this.rafPending = true;
        requestAnimationFrame(function () { self.rafPending = false; self.drawOnly(); });
    }
    this.slider.value = String(this.frame);
    this.turnLabel.textContent = "turn " + this.frame + " / " + this.timeline.last() + " · round " + frame.round;
    this.speedLabel.textContent = "speed " + this.speed + " (" + JV.SPEEDS[this.speed - 1] + "/s)";
    this.playButton.textContent = this.playing ? "pause" : "play";
    var figs = this.timeline.figures[this.frame];
    JV.renderLeaderboard(this.board, this, figs);
    JV.renderViolations(this.violations, this, frame);
    JV.renderEvents(this.events, this, frame);
    for (var c = 0; c < this.charts.length; c++) {
        if (this.charts[c].cpuChart) {
            var r = frame.inputs.length ? frame.inputs[frame.inputs.length - 1].reply : null;
            this.charts[c].setCursor(r);
        } else this.charts[c].setCursor(this.frame);
    }
    this.root.dataset.frame = String(this.frame);
};

JV.App.prototype.drawOnly = function () {
    var t = this.progress();
    this.game.draw(this.canvas, this.timeline.stateAt(this.frame), this.timeline.frames[this.frame], this.view, this.replay.header, t);
    if (t < 1 && !this.rafPending) {
        var self = this;
        this.rafPending = true;
        requestAnimationFrame(function () { self.rafPending = false; self.drawOnly(); });
    }
};

JV.App.prototype.tick = function () {
    if (!this.playing) return;
    if (this.frame >= this.timeline.last()) { this.pause(); return; }
    this.go(this.frame + 1, true);
    var self = this;
    this.timer = setTimeout(function () { self.tick(); }, 1000 / JV.SPEEDS[this.speed - 1]);
};

JV.App.prototype.play = function () {
    if (this.playing) return;
    if (this.frame >= this.timeline.last()) this.frame = 0;
    this.playing = true;
    this.tick();
};

JV.App.prototype.pause = function () {
    clearTimeout(this.timer);
    if (this.playing) {
        this.playing = false;
        this.writeHash(true);
        this.render();
    }
};

JV.App.prototype.togglePlay = function () {
    if (this.playing) this.pause(); else this.play();
};

JV.App.prototype.setSpeed = function (d) {
    this.speed = d;
    this.render();
};

JV.App.prototype.toggleFog = function (p) {
    this.view.fog = this.view.fog === p ? 0 : p;
    this.render();
};

JV.App.prototype.key = function (ev) {
    if (ev.target && (ev.target.tagName === "INPUT" && ev.target.type !== "range")) return;
    var k = ev.key;
    if (k === " ") this.togglePlay();
    else if (k === "ArrowRight") { this.pause(); this.go(this.frame + 1, true); }
    else if (k === "ArrowLeft") { this.pause(); this.go(this.frame - 1, true); }
    else if (k === "Home") { this.pause(); this.go(0, false); }
    else if (k === "End") { this.pause(); this.go(this.timeline.last(), false); }
    else if (k >= "1" && k <= "9" && k.length === 1) this.setSpeed(Number(k));
    else return;
    ev.preventDefault();
};

JV.App.prototype.onHash = function () {
    var f = this.frameFromHash();
    if (f === this.frame) return;   /* our own replaceState, or the same turn */
    this.pause();
    this.go(f, false);
};

/* The data model of what is drawn, for tests and for anyone scripting the page. */
JV.App.prototype.api = function () {
    var self = this;
    return {
        ready: true,
        game: this.replay.header.game,
        turn: function () { return self.frame; },
        last: function () { return self.timeline.last(); },
        go: function (f) { self.pause(); self.go(f, false); return self.frame; },
        fog: function (p) { self.view.fog = p; self.render(); },
        view: function () { return JSON.parse(JSON.stringify(self.view)); },
        state: function () { return self.game.model(self.timeline.stateAt(self.frame), self.view, self.replay.header); },
        frames: function () {
            return self.timeline.frames.map(function (fr) { return {n: fr.n, round: fr.round, inputs: fr.inputs.length, events: fr.events.length}; });
        },
        cpu: function () {
            return self.cpu.series.map(function (s) { return s.points.map(function (p) { return {x: p.x, y: p.y, frame: p.frame}; }); });
        },
        marks: function () { return self.markList.slice(); },
        violations: function () {
            return Array.prototype.map.call(self.violations.querySelectorAll(".jv-violation"), function (e) { return e.textContent; });
        },
        playing: function () { return self.playing; },
        animation: function () { return self.progress(); }
    };
};
