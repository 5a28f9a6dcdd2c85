/* page.c - fill viewer/page.html's three slots: styles, the replay (base64), the scripts. */
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
    for (size_t i = 0; i < len; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < len ? (unsigned)p[i + 1] << 8 : 0) | (i + 2 < len ? p[i + 2] : 0);
        char quad[4] = {digits[v >> 18 & 63], digits[v >> 12 & 63], i + 1 < len ? digits[v >> 6 & 63] : '=',
                        i + 2 < len ? digits[v & 63] : '='};
        if (sb_append(out, quad, 4) < 0)
            return -1;
    }
    return 0;
}

static int put_slot(struct strbuf *out, const char *slot, const void *replay, size_t len, const char *name,
                    const char *assets)
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
    if (!strcmp(slot, "replay")) {
        if (!replay)
            return 0;
        return sb_puts(out, "<script type=\"application/octet-stream\" id=\"jv-replay\" data-name=\"") < 0 ||
                       viewer_html_escape(out, name, strlen(name)) < 0 || sb_puts(out, "\">") < 0 ||
                       viewer_base64(out, replay, len) < 0 || sb_puts(out, "</script>") < 0 ? -1 : 0;
    }
    return -1;
}

int viewer_page(struct strbuf *out, const void *replay, size_t len, const char *name, const char *assets)
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
        if (sb_append(out, at, (size_t)(slot - at)) < 0 || put_slot(out, word, replay, len, name, assets) < 0)
            return -1;
        at = stop + sizeof close - 1;
    }
    return 0;
}
