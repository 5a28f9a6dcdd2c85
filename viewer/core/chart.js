/* chart.js - small line charts on a canvas: series of [x, y] points, dashed reference lines,
 * a cursor at the shown frame, and a click on a point that reports it. */
"use strict";
var JV = window.JV || (window.JV = {});

JV.Chart = function (parent, spec) {
    this.spec = spec;              /* {title, yUnit, series:[{name,color,points:[{x,y,frame}]}], lines:[...], xOf(frame)} */
    this.box = document.createElement("figure");
    this.box.className = "jv-chart";
    var cap = document.createElement("figcaption");
    cap.textContent = spec.title;
    this.box.appendChild(cap);
    this.canvas = document.createElement("canvas");
    this.canvas.width = spec.width || 460;
    this.canvas.height = spec.height || 170;
    this.box.appendChild(this.canvas);
    parent.appendChild(this.box);
    this.cursor = null;
    var self = this;
    this.canvas.addEventListener("click", function (ev) {
        var hit = self.pointAt(ev.offsetX * self.canvas.width / self.canvas.clientWidth,
                               ev.offsetY * self.canvas.height / self.canvas.clientHeight);
        if (hit && spec.onPick) spec.onPick(hit);
    });
    this.bounds();
    if (this.log) cap.textContent = spec.title + " · log scale";
    this.draw();
};

JV.Chart.prototype.bounds = function () {
    var minX = Infinity, maxX = -Infinity, maxY = 0;
    var all = this.spec.series.concat(this.spec.lines || []);
    for (var s = 0; s < all.length; s++)
        for (var i = 0; i < all[s].points.length; i++) {
            var p = all[s].points[i];
            minX = Math.min(minX, p.x);
            maxX = Math.max(maxX, p.x);
            maxY = Math.max(maxY, p.y);
        }
    if (!isFinite(minX)) { minX = 0; maxX = 1; }
    /* A log scale when the figures sit far below the reference line (CPU against a budget). */
    var lines = this.spec.lines || [], dataMax = 0, minPos = Infinity;
    for (s = 0; s < this.spec.series.length; s++)
        for (i = 0; i < this.spec.series[s].points.length; i++) {
            var y = this.spec.series[s].points[i].y;
            dataMax = Math.max(dataMax, y);
            if (y > 0) minPos = Math.min(minPos, y);
        }
    this.log = !!this.spec.logWhenFar && lines.length > 0 && dataMax > 0 && maxY > 20 * dataMax;
    this.minLog = this.log ? Math.floor(Math.log10(minPos)) : 0;
    if (maxX === minX) maxX = minX + 1;
    this.minX = minX; this.maxX = maxX; this.maxY = maxY > 0 ? maxY * 1.05 : 1;
    this.pad = {l: 52, r: 8, t: 8, b: 20};
};

JV.Chart.prototype.px = function (x) {
    var w = this.canvas.width - this.pad.l - this.pad.r;
    return this.pad.l + (x - this.minX) / (this.maxX - this.minX) * w;
};

JV.Chart.prototype.py = function (y) {
    var h = this.canvas.height - this.pad.t - this.pad.b;
    if (this.log) {
        var top = Math.log10(this.maxY), v = Math.log10(Math.max(y, Math.pow(10, this.minLog)));
        return this.pad.t + h - (v - this.minLog) / (top - this.minLog) * h;
    }
    return this.pad.t + h - y / this.maxY * h;
};

JV.Chart.prototype.pointAt = function (cx, cy) {
    var best = null, bestD = 64;
    for (var s = 0; s < this.spec.series.length; s++) {
        var pts = this.spec.series[s].points;
        for (var i = 0; i < pts.length; i++) {
            var dx = this.px(pts[i].x) - cx, dy = this.py(pts[i].y) - cy, d = dx * dx + dy * dy;
            if (d < bestD) { bestD = d; best = pts[i]; }
        }
    }
    if (best) return best;
    /* Not on a point: the nearest x of the first series, so a click anywhere jumps. */
    var first = this.spec.series[0] ? this.spec.series[0].points : [];
    var near = null, nearD = Infinity;
    for (i = 0; i < first.length; i++) {
        var ddx = Math.abs(this.px(first[i].x) - cx);
        if (ddx < nearD) { nearD = ddx; near = first[i]; }
    }
    return nearD < 12 ? near : null;
};

/* Moving the cursor redraws only the cursor over a copy of the drawn chart. */
JV.Chart.prototype.setCursor = function (x) {
    this.cursor = x;
    var c = this.canvas.getContext("2d");
    if (!this.base) {
        this.cursor = null;
        this.draw();
        this.base = document.createElement("canvas");
        this.base.width = this.canvas.width;
        this.base.height = this.canvas.height;
        this.base.getContext("2d").drawImage(this.canvas, 0, 0);
        this.cursor = x;
    }
    c.clearRect(0, 0, this.canvas.width, this.canvas.height);
    c.drawImage(this.base, 0, 0);
    this.drawCursor(c);
};

JV.Chart.prototype.drawCursor = function (c) {
    if (this.cursor === null || this.cursor === undefined) return;
    c.strokeStyle = "rgba(0,0,0,0.45)";
    c.setLineDash([2, 3]);
    c.beginPath();
    c.moveTo(this.px(this.cursor), this.pad.t);
    c.lineTo(this.px(this.cursor), this.canvas.height - this.pad.b);
    c.stroke();
    c.setLineDash([]);
};

JV.formatFigure = function (v, unit) {
    if (unit === "ms") return (v / 1e6).toFixed(v < 1e5 ? 3 : v < 1e7 ? 1 : 0) + " ms";
    if (Math.abs(v) >= 10000) return Math.round(v / 1000) + "k";
    return String(Math.round(v));
};

JV.Chart.prototype.draw = function () {
    var c = this.canvas.getContext("2d"), W = this.canvas.width, H = this.canvas.height;
    c.clearRect(0, 0, W, H);
    c.strokeStyle = "#bbb";
    c.lineWidth = 1;
    c.beginPath();
    c.moveTo(this.pad.l, this.pad.t);
    c.lineTo(this.pad.l, H - this.pad.b);
    c.lineTo(W - this.pad.r, H - this.pad.b);
    c.stroke();
    c.fillStyle = "#555";
    c.font = "10px sans-serif";
    c.textAlign = "right";
    c.fillText(JV.formatFigure(this.maxY, this.spec.yUnit), this.pad.l - 3, this.pad.t + 8);
    c.fillText(this.log ? JV.formatFigure(Math.pow(10, this.minLog), this.spec.yUnit) : "0", this.pad.l - 3, H - this.pad.b);
    c.textAlign = "center";
    c.fillText(String(this.minX), this.pad.l, H - 6);
    c.fillText(String(this.maxX) + (this.spec.xUnit ? " " + this.spec.xUnit : ""), W - this.pad.r - 20, H - 6);
    var lines = this.spec.lines || [];
    for (var l = 0; l < lines.length; l++) this.stroke(c, lines[l], true);
    for (var s = 0; s < this.spec.series.length; s++) this.stroke(c, this.spec.series[s], false);
    this.drawCursor(c);
};

/* A long series is drawn one pixel column at a time (its first, lowest, highest and last
 * point there): the same picture as every point, at the cost of the canvas's width. */
JV.Chart.prototype.stroke = function (c, s, dashed) {
    if (!s.points.length) return;
    c.strokeStyle = s.color;
    c.lineWidth = dashed ? 1 : 1.6;
    c.setLineDash(dashed ? [5, 4] : []);
    c.beginPath();
    var column = null, lo = 0, hi = 0, lastY = 0;
    for (var i = 0; i < s.points.length; i++) {
        var x = this.px(s.points[i].x), y = this.py(s.points[i].y), col = Math.round(x);
        if (i === 0) c.moveTo(x, y);
        if (col !== column) {
            if (column !== null) { c.lineTo(column, lo); c.lineTo(column, hi); c.lineTo(column, lastY); }
            c.lineTo(x, y);
            column = col; lo = y; hi = y;
        } else {
            lo = Math.min(lo, y);
            hi = Math.max(hi, y);
        }
        lastY = y;
    }
    if (column !== null) c.lineTo(column, lastY);
    c.stroke();
    c.setLineDash([]);
    if (s.marks) {
        c.fillStyle = "#d00";
        for (i = 0; i < s.marks.length; i++) {
            c.beginPath();
            c.arc(this.px(s.marks[i].x), this.py(s.marks[i].y), 4, 0, 7);
            c.fill();
        }
    }
};
