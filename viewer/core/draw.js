/* draw.js - drawing helpers shared by the game renderers: player colours, arrows, labels. */
"use strict";
var JV = window.JV || (window.JV = {});

JV.PLAYER_COLORS = ["#888888", "#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6",
    "#9a6324", "#469990", "#800000", "#808000", "#000075", "#bfef45", "#fabed4", "#dcbeff", "#aaffc3"];

JV.playerColor = function (p) {
    return JV.PLAYER_COLORS[p >= 0 && p < JV.PLAYER_COLORS.length ? p : 0];
};

/* An arrow from (x1, y1) towards (x2, y2), drawn up to fraction t of its length. */
JV.arrow = function (c, x1, y1, x2, y2, t, color, width) {
    var x = x1 + (x2 - x1) * t, y = y1 + (y2 - y1) * t;
    var a = Math.atan2(y - y1, x - x1), head = Math.max(5, width * 2.5);
    c.strokeStyle = color;
    c.fillStyle = color;
    c.lineWidth = width;
    c.beginPath();
    c.moveTo(x1, y1);
    c.lineTo(x, y);
    c.stroke();
    c.beginPath();
    c.moveTo(x, y);
    c.lineTo(x - head * Math.cos(a - 0.45), y - head * Math.sin(a - 0.45));
    c.lineTo(x - head * Math.cos(a + 0.45), y - head * Math.sin(a + 0.45));
    c.closePath();
    c.fill();
};

JV.label = function (c, text, x, y, size, color) {
    c.font = "bold " + size + "px sans-serif";
    c.textAlign = "center";
    c.textBaseline = "middle";
    c.lineWidth = 3;
    c.strokeStyle = "rgba(255,255,255,0.85)";
    c.strokeText(text, x, y);
    c.fillStyle = color || "#111";
    c.fillText(text, x, y);
};

JV.shortNumber = function (v) {
    if (v >= 1e6) return (v / 1e6).toFixed(v >= 1e7 ? 0 : 1) + "M";
    if (v >= 1e4) return Math.round(v / 1e3) + "k";
    return String(v);
};

/* Canvas sized for the board: cell size so that the board fits maxW x maxH. */
JV.fitCanvas = function (canvas, cols, rows, maxW, maxH, extraH) {
    var cell = Math.max(6, Math.min(40, Math.floor(Math.min(maxW / cols, maxH / rows))));
    var w = cell * cols, h = cell * rows + (extraH || 0);
    if (canvas.width !== w || canvas.height !== h) {
        canvas.width = w;
        canvas.height = h;
    }
    return cell;
};
