/* replay.js - turn the bytes of a replay (.jsonl.gz, or plain .jsonl) into its parsed lines.
 * Every failure becomes a ReplayError with a sentence for the page (never a console error). */
"use strict";
var JV = window.JV || (window.JV = {});

JV.FORMAT = "judge-replay";
JV.VERSIONS = [1];

JV.ReplayError = function (message) {
    this.message = message;
};

JV.base64ToBytes = function (text) {
    var clean = text.replace(/\s+/g, "");
    var bin;
    try {
        bin = atob(clean);
    } catch (e) {
        throw new JV.ReplayError("The embedded replay is damaged (its base64 text does not decode).");
    }
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return bytes;
};

JV.gunzip = function (bytes) {
    if (typeof DecompressionStream !== "function")
        return Promise.reject(new JV.ReplayError("This browser cannot decompress gzip (no DecompressionStream): use a recent Chromium, Firefox or Safari."));
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).arrayBuffer().then(function (buf) {
        return new Uint8Array(buf);
    }, function () {
        throw new JV.ReplayError("The replay is damaged or truncated: its gzip stream does not decompress to the end.");
    });
};

JV.isGzip = function (bytes) {
    return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
};

/* Bytes of a replay file -> Promise of {header, lines, result}. */
JV.decodeReplay = function (bytes) {
    var plain = JV.isGzip(bytes) ? JV.gunzip(bytes) : Promise.resolve(bytes);
    return plain.then(function (raw) {
        var text;
        try {
            text = new TextDecoder("utf-8", {fatal: true}).decode(raw);
        } catch (e) {
            throw new JV.ReplayError("The replay is damaged: it is not UTF-8 text.");
        }
        return JV.parseReplayText(text);
    });
};

JV.parseReplayText = function (text) {
    if (text.length === 0) throw new JV.ReplayError("The replay is empty.");
    var parts = text.split("\n");
    if (parts[parts.length - 1] === "") parts.pop();
    var lines = [];
    for (var i = 0; i < parts.length; i++) {
        var obj;
        try {
            obj = JSON.parse(parts[i]);
        } catch (e) {
            if (i === 0)
                throw new JV.ReplayError("This is not a judge replay: its first line is not JSON.");
            if (i === parts.length - 1)
                throw new JV.ReplayError("The replay is truncated: line " + (i + 1) + " is cut off and there is no result line.");
            throw new JV.ReplayError("The replay is damaged: line " + (i + 1) + " is not JSON.");
        }
        if (!obj || typeof obj !== "object" || typeof obj.type !== "string")
            throw new JV.ReplayError("The replay is damaged: line " + (i + 1) + " has no \"type\".");
        lines.push(obj);
    }
    var header = lines[0];
    if (header.type !== "header" || header.format !== JV.FORMAT)
        throw new JV.ReplayError("This is not a judge replay: its first line is not a \"" + JV.FORMAT + "\" header.");
    if (JV.VERSIONS.indexOf(header.version) < 0)
        throw new JV.ReplayError("This replay has format version " + JSON.stringify(header.version) +
            ", which this viewer does not know (it reads versions " + JV.VERSIONS.join(", ") +
            "). Open it with the judge that wrote it: judge view REPLAY.");
    if (!JV.games[header.game])
        throw new JV.ReplayError("This viewer cannot draw the game \"" + String(header.game) + "\".");
    var last = lines[lines.length - 1];
    if (last.type !== "result")
        throw new JV.ReplayError("The replay is truncated: it has " + lines.length + " lines and no result line.");
    return {header: header, lines: lines.slice(1, lines.length - 1), result: last};
};
