/* timeline.js - cut a replay into frames and rebuild the state of any frame at once.
 *
 * A frame ends where the next input line begins (a reply, or a violation the judge found)
 * once something has happened since the last input: so frame k holds the inputs that led
 * to it and every event and violation they caused. Frame 0 is the board the game starts
 * with. The state of frame k is the nearest stored keyframe plus the events since. */
"use strict";
var JV = window.JV || (window.JV = {});
JV.games = JV.games || {};

JV.KEYFRAME_EVERY = 16;

JV.isInput = function (line) {
    return line.type === "reply" || (line.type === "violation" && line.by === "judge");
};

JV.cutFrames = function (lines) {
    var frames = [];
    var cur = {index: 0, inputs: [], events: [], violations: [], replies: [], n: 0, round: 0};
    var outputs = 0, n = 0;
    for (var i = 0; i < lines.length; i++) {
        var line = lines[i];
        if (JV.isInput(line)) {
            if (outputs > 0) {
                frames.push(cur);
                cur = {index: frames.length, inputs: [], events: [], violations: [], replies: [], n: n, round: cur.round};
                outputs = 0;
            }
            n++;
            cur.n = n;
            cur.inputs.push(line);
            if (line.type === "reply") cur.replies.push(line);
            else cur.violations.push(line);
            if (typeof line.round === "number") cur.round = line.round;
        } else if (line.type === "event") {
            cur.events.push(line.event);
            if (line.event && typeof line.event.round === "number") cur.round = line.event.round;
            outputs++;
        } else if (line.type === "violation") {
            cur.violations.push(line);
            outputs++;
        }
    }
    frames.push(cur);
    return frames;
};

/* Builds every frame's state once, keeping a copy every KEYFRAME_EVERY frames and the
 * game's figures for the charts at every frame. */
JV.Timeline = function (replay) {
    this.replay = replay;
    this.game = JV.games[replay.header.game];
    this.frames = JV.cutFrames(replay.lines);
    this.keyframes = [];
    this.figures = [];
    var state = this.game.init(replay.header);
    for (var f = 0; f < this.frames.length; f++) {
        this.applyFrame(state, this.frames[f]);
        if (f % JV.KEYFRAME_EVERY === 0) this.keyframes.push(this.game.clone(state));
        this.figures.push(this.game.figures(state, replay.header));
    }
    this.cache = {frame: -1, state: null};
    this.replyFrame = {};
    for (f = 0; f < this.frames.length; f++)
        for (var r = 0; r < this.frames[f].inputs.length; r++)
            this.replyFrame[this.frames[f].inputs[r].player + ":" + this.frames[f].inputs[r].reply] = f;
};

JV.Timeline.prototype.applyFrame = function (state, frame) {
    for (var e = 0; e < frame.events.length; e++) this.game.apply(state, frame.events[e], this.replay.header);
    this.game.endFrame && this.game.endFrame(state, frame, this.replay.header);
};

JV.Timeline.prototype.last = function () {
    return this.frames.length - 1;
};

JV.Timeline.prototype.stateAt = function (f) {
    f = Math.max(0, Math.min(this.last(), f));
    if (this.cache.frame === f) return this.cache.state;
    var k = Math.floor(f / JV.KEYFRAME_EVERY), from;
    var state;
    if (this.cache.frame >= k * JV.KEYFRAME_EVERY && this.cache.frame < f) {
        state = this.cache.state;    /* stepping forward: go on from the shown frame */
        from = this.cache.frame + 1;
    } else {
        state = this.game.clone(this.keyframes[k]);
        from = k * JV.KEYFRAME_EVERY + 1;
    }
    for (var i = from; i <= f; i++) this.applyFrame(state, this.frames[i]);
    this.cache = {frame: f, state: state};
    return state;
};

/* The frame in which player p's reply number j (README C7) was given. */
JV.Timeline.prototype.frameOfReply = function (p, j) {
    var f = this.replyFrame[p + ":" + j];
    return f === undefined ? -1 : f;
};
