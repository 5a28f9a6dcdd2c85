/* page.c - fill viewer/page.html's three slots: styles, the replays (base64), the scripts. */
#include <string.h>

#include "viewer/page.h"

int viewer_html_escape(struct strbuf *out, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *rep = NULL;
        switch (s[i]) {
        case '&': rep = "&amp;"; break;
        case '<': rep = "&lt;"; break;
        case '>': rep = "&gt;"; break;
        case '"': rep = "&quot;"; break;
        case '\'': rep = "&#39;"; break;
        default: break;
        }
        if ((rep ? sb_puts(out, rep) : sb_putc(out, s[i])) < 0)
            return -1;
    }
    return 0;
}

int viewer_base64(struct strbuf *out, const void *data, size_t len)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const unsigned char *p = data;
    if (sb_reserve(out, (len + 2) / 3 * 4 + 1) < 0)
        return -1;
    char *q = out->data + out->len;
    size_t whole = len - len % 3;
    for (size_t i = 0; i < whole; i += 3, q += 4) {
        unsigned v = (unsigned)p[i] << 16 | (unsigned)p[i + 1] << 8 | p[i + 2];
        q[0] = digits[v >> 18];
        q[1] = digits[v >> 12 & 63];
        q[2] = digits[v >> 6 & 63];
        q[3] = digits[v & 63];
    }
    if (whole < len) {
        unsigned v = (unsigned)p[whole] << 16 | (whole + 1 < len ? (unsigned)p[whole + 1] << 8 : 0);
        q[0] = digits[v >> 18];
        q[1] = digits[v >> 12 & 63];
        q[2] = whole + 1 < len ? digits[v >> 6 & 63] : '=';
        q[3] = '=';
        q += 4;
    }
    out->len = (size_t)(q - out->data);
    out->data[out->len] = '\0';
    return 0;
}

int viewer_replay_element(struct strbuf *out, const char *base64, size_t len, const char *name, const char *id)
{
    if (sb_puts(out, id ? "<script type=\"application/octet-stream\" class=\"jv-replay\" data-id=\""
                        : "<script type=\"application/octet-stream\" id=\"jv-replay\"") < 0 ||
        (id && (viewer_html_escape(out, id, strlen(id)) < 0 || sb_putc(out, '"') < 0)))
        return -1;
    return sb_puts(out, " data-name=\"") < 0 || viewer_html_escape(out, name, strlen(name)) < 0 ||
                   sb_puts(out, "\">") < 0 || sb_append(out, base64, len) < 0 || sb_puts(out, "</script>\n") < 0
               ? -1
               : 0;
}

static int put_slot(struct strbuf *out, const char *slot, const char *replays, size_t len, const char *assets)
{
    if (!strcmp(slot, "style")) {
        if (assets)
            return sb_puts(out, "<link rel=\"stylesheet\" href=\"") < 0 || viewer_html_escape(out, assets, strlen(assets)) < 0 ||
                           sb_puts(out, "/viewer.css\">") < 0 ? -1 : 0;
        return sb_puts(out, "<style>\n") < 0 || sb_append(out, viewer_css, viewer_css_len) < 0 || sb_puts(out, "</style>") < 0
                   ? -1 : 0;
    }
    if (!strcmp(slot, "script")) {
        if (assets)
            return sb_puts(out, "<script src=\"") < 0 || viewer_html_escape(out, assets, strlen(assets)) < 0 ||
                           sb_puts(out, "/viewer.js\"></script>") < 0 ? -1 : 0;
        return sb_puts(out, "<script>\n") < 0 || sb_append(out, viewer_js, viewer_js_len) < 0 || sb_puts(out, "</script>") < 0
                   ? -1 : 0;
    }
    if (!strcmp(slot, "replay"))
        return sb_append(out, replays, len);
    return -1;
}

int viewer_page_of(struct strbuf *out, const char *replays, size_t len, const char *assets)
{
    static const char open[] = "<!--jv:", close[] = "-->";
    const char *at = viewer_page_html, *end = viewer_page_html + viewer_page_html_len;
    while (at < end) {
        const char *slot = strstr(at, open);
        if (!slot)
            return sb_append(out, at, (size_t)(end - at));
        const char *stop = strstr(slot, close);
        char word[16] = "";
        size_t n = stop ? (size_t)(stop - slot) - (sizeof open - 1) : 0;
        if (!stop || n >= sizeof word)
            return -1;
        memcpy(word, slot + sizeof open - 1, n);
        if (sb_append(out, at, (size_t)(slot - at)) < 0 || put_slot(out, word, replays, len, assets) < 0)
            return -1;
        at = stop + sizeof close - 1;
    }
    return 0;
}

int viewer_page(struct strbuf *out, const void *replay, size_t len, const char *name, const char *assets)
{
    struct strbuf base64 = STRBUF_INIT, element = STRBUF_INIT;
    int rc = viewer_base64(&base64, replay, len) < 0 ||
                     viewer_replay_element(&element, base64.data ? base64.data : "", base64.len, name, NULL) < 0 ||
                     viewer_page_of(out, element.data, element.len, assets) < 0
                 ? -1
                 : 0;
    sb_free(&base64);
    sb_free(&element);
    return rc;
}
