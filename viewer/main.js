/* main.js - start the viewer: open the replay embedded in the page (base64 of the gzip
 * bytes; on a page of several, the one the URL names), or wait for one dropped on the page;
 * show any failure as a message. */
"use strict";
var JV = window.JV || (window.JV = {});

JV.showMessage = function (text, isError) {
    var box = document.getElementById("jv-message");
    box.textContent = text;
    box.className = isError ? "jv-error" : "jv-info";
    box.hidden = false;
    document.body.dataset.state = isError ? "error" : "waiting";
    window.__viewer = {ready: false, error: isError ? text : null};
};

JV.fail = function (err) {
    var text = err instanceof JV.ReplayError ? err.message : "The viewer could not show this replay: " + (err && err.message ? err.message : String(err));
    JV.showMessage(text, true);
    document.getElementById("jv-app").hidden = true;
};

JV.openBytes = function (bytes, name) {
    document.body.dataset.state = "loading";
    return JV.decodeReplay(bytes).then(function (replay) {
        var root = document.getElementById("jv-app");
        root.hidden = false;
        document.getElementById("jv-message").hidden = true;
        if (JV.app) { clearTimeout(JV.app.timer); clearTimeout(JV.app.hashTimer); }
        JV.app = new JV.App(root, replay, name);
        window.__viewer = JV.app.api();
        JV.readyAt = performance.now();   /* the first frame is drawn: make bench reads it */
        document.title = replay.header.game + " · " + (name || "replay");
        document.body.dataset.state = "ready";
    }).catch(JV.fail);
};

JV.listen = function () {
    window.addEventListener("error", function (ev) { ev.preventDefault(); JV.fail(ev.error || ev.message); });
    window.addEventListener("unhandledrejection", function (ev) { ev.preventDefault(); JV.fail(ev.reason); });
    document.addEventListener("keydown", function (ev) { if (JV.app) JV.app.key(ev); });
    window.addEventListener("hashchange", function () { if (JV.app) JV.app.onHash(); });
    document.addEventListener("dragover", function (ev) { ev.preventDefault(); document.body.classList.add("jv-dragging"); });
    document.addEventListener("dragleave", function () { document.body.classList.remove("jv-dragging"); });
    document.addEventListener("drop", function (ev) {
        ev.preventDefault();
        document.body.classList.remove("jv-dragging");
        var file = ev.dataTransfer && ev.dataTransfer.files[0];
        if (!file) return;
        file.arrayBuffer().then(function (buf) {
            history.replaceState(null, "", "#turn=0");
            return JV.openBytes(new Uint8Array(buf), file.name);
        }).catch(JV.fail);
    });
    var picker = document.getElementById("jv-file");
    if (picker)
        picker.addEventListener("change", function () {
            var file = picker.files[0];
            if (file) file.arrayBuffer().then(function (buf) { return JV.openBytes(new Uint8Array(buf), file.name); }).catch(JV.fail);
        });
};

/* The replay element to open: the page's only one (judge view), or, on a page of several
 * matches (judge results' matches/F-L.html), the one whose id the URL's ?m= names. null with a
 * list of links shown when the URL names none of them. */
JV.pickReplay = function () {
    var only = document.getElementById("jv-replay");
    if (only) return only.textContent.trim() ? only : null;
    var all = document.querySelectorAll("script.jv-replay"), want = new URLSearchParams(window.location.search).get("m");
    for (var i = 0; i < all.length; i++)
        if (all[i].dataset.id === want) return all[i];
    if (!all.length) return null;
    JV.listReplays(all, want);
    return undefined;
};

JV.listReplays = function (all, want) {
    JV.showMessage(want ? "This page holds no match " + want + ": it holds these." : "This page holds " + all.length + " matches: choose one.", !!want);
    var list = document.createElement("ul");
    list.className = "jv-matches";
    Array.prototype.forEach.call(all, function (node) {
        var a = document.createElement("a");
        a.href = "?m=" + encodeURIComponent(node.dataset.id);
        a.textContent = node.dataset.id;
        list.appendChild(document.createElement("li")).appendChild(a);
    });
    document.getElementById("jv-message").appendChild(list);
};

JV.start = function () {
    JV.listen();
    var data = JV.pickReplay();
    if (data === undefined) return;
    if (!data) {
        JV.showMessage("Drop a replay (.jsonl.gz) on this page, or choose one above.", false);
        return;
    }
    try {
        JV.openBytes(JV.base64ToBytes(data.textContent), data.dataset.name);
    } catch (e) {
        JV.fail(e);
    }
};

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", JV.start);
else JV.start();
