/* test_judge_replay.c - replay writing, reading (truncation, corruption), verify and export. */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "judge/verify/replay_verify.h"
#include "replay/inflate_whole.h"
#include "judge/match/match_replay.h"

static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/test_judge_replay.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void remove_dir(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.' || (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")))
            unlinkat(dirfd(d), e->d_name, 0);
    if (d)
        closedir(d);
    rmdir(dir);
}

static int count_entries(void)
{
    int n = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

static void path_in_dir(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", dir, name);
}

static void write_lines(const char *path, const char *const *lines, size_t n)
{
    struct replay_writer *w;
    struct replay_error err;
    ck_assert_int_eq(replay_writer_open(path, &w, &err), 0);
    for (size_t i = 0; i < n; i++)
        ck_assert_int_eq(replay_writer_put(w, lines[i], strlen(lines[i]), &err), 0);
    ck_assert_int_eq(replay_writer_commit(w, &err), 0);
}

/* Read an opened reader to the end and close it; its last status, err filled. */
static int drain(struct replay_reader *rd, int *objects, struct replay_error *err)
{
    struct json_object *o;
    int rc;
    while ((rc = replay_reader_next(rd, &o, err)) == 1) {
        (*objects)++;
        json_object_put(o);
    }
    replay_reader_close(rd);
    return rc;
}

/* Read to the end; returns the reader's last status and leaves err filled. */
static int read_all(const char *path, int *objects, struct replay_error *err)
{
    struct replay_reader *rd;
    *objects = 0;
    return replay_reader_open(path, &rd, err) < 0 ? -1 : drain(rd, objects, err);
}

static const char *const simple[] = {
    "{\"type\":\"header\",\"format\":\"judge-replay\",\"version\":1}",
    "{\"type\":\"reply\",\"n\":1,\"player\":1,\"line\":\"-1 \\u0000 \\\"quoted\\\"\"}",
    "{\"type\":\"result\",\"winner\":1}",
};

START_TEST(written_lines_read_back_in_order)
{
    char path[128];
    make_dir();
    path_in_dir(path, sizeof path, "r.jsonl.gz");
    write_lines(path, simple, 3);
    struct replay_reader *rd;
    struct replay_error err;
    struct json_object *o, *t;
    ck_assert_int_eq(replay_reader_open(path, &rd, &err), 0);
    static const char *const types[] = {"header", "reply", "result"};
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(replay_reader_next(rd, &o, &err), 1);
        ck_assert_int_eq(replay_reader_line_no(rd), i + 1);
        ck_assert(json_object_object_get_ex(o, "type", &t));
        ck_assert_str_eq(json_object_get_string(t), types[i]);
        size_t len;
        const char *text = replay_reader_text(rd, &len);
        ck_assert_uint_eq(len, strlen(simple[i]));
        ck_assert_mem_eq(text, simple[i], len);
        if (i == 1) {
            ck_assert(json_object_object_get_ex(o, "line", &t));
            ck_assert_int_eq(json_object_get_string_len(t), 13);   /* the NUL survives */
        }
        json_object_put(o);
    }
    ck_assert_int_eq(replay_reader_next(rd, &o, &err), 0);
    ck_assert_int_eq(replay_reader_next(rd, &o, &err), 0);
    replay_reader_close(rd);
    remove_dir();
}
END_TEST

START_TEST(commit_leaves_one_file_of_mode_0644_and_no_temporary)
{
    char path[128];
    struct stat st;
    make_dir();
    path_in_dir(path, sizeof path, "r.jsonl.gz");
    umask(077);
    write_lines(path, simple, 3);
    umask(022);
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 07777, 0644);
    ck_assert_int_eq(count_entries(), 1);
    remove_dir();
}
END_TEST

START_TEST(abort_leaves_nothing)
{
    char path[128];
    struct replay_writer *w;
    struct replay_error err;
    make_dir();
    path_in_dir(path, sizeof path, "r.jsonl.gz");
    ck_assert_int_eq(replay_writer_open(path, &w, &err), 0);
    ck_assert_int_eq(access(replay_writer_temp_path(w), F_OK), 0);
    ck_assert_int_eq(replay_writer_put(w, simple[0], strlen(simple[0]), &err), 0);
    replay_writer_abort(w);
    ck_assert_int_eq(count_entries(), 0);
    remove_dir();
}
END_TEST

/* Line i of a replay past what the writer keeps in memory: about 1 KiB, hard to
 * compress; line 0 is the header. */
static size_t long_line(char *buf, size_t size, unsigned i)
{
    if (i == 0) return (size_t)snprintf(buf, size, "%s", simple[0]);
    unsigned x = i * 2654435761u + 1;
    int n = snprintf(buf, size, "{\"type\":\"reply\",\"n\":%u,\"line\":\"", i);
    for (int k = 0; k < 1000; k++, x = x * 1103515245u + 12345u)
        buf[n++] = "0123456789abcdef"[(x >> 16) & 15];
    n += snprintf(buf + n, size - (size_t)n, "\"}");
    return (size_t)n;
}

/* Past the 8 MiB kept in memory, what was kept goes to the gzip stream first, the
 * rest after it: every line reads back, in order. */
START_TEST(a_replay_past_the_memory_it_is_kept_in_reads_back_whole)
{
    enum { LINES = 9000 };
    char path[128], line[1100];
    struct replay_writer *w;
    struct replay_error err;
    make_dir();
    path_in_dir(path, sizeof path, "r.jsonl.gz");
    ck_assert_int_eq(replay_writer_open(path, &w, &err), 0);
    for (unsigned i = 0; i < LINES; i++) {
        size_t len = long_line(line, sizeof line, i);
        ck_assert_int_eq(replay_writer_put(w, line, len, &err), 0);
    }
    ck_assert_int_eq(replay_writer_put(w, simple[2], strlen(simple[2]), &err), 0);
    ck_assert_int_eq(replay_writer_commit(w, &err), 0);
    struct replay_reader *rd;
    ck_assert_int_eq(replay_reader_open(path, &rd, &err), 0);
    for (unsigned i = 0; i < LINES; i++) {
        struct json_object *o;
        ck_assert_int_eq(replay_reader_next(rd, &o, &err), 1);
        size_t len, want = long_line(line, sizeof line, i);
        const char *text = replay_reader_text(rd, &len);
        ck_assert_uint_eq(len, want);
        ck_assert_mem_eq(text, line, len);
        json_object_put(o);
    }
    struct json_object *o;
    ck_assert_int_eq(replay_reader_next(rd, &o, &err), 1); /* the result */
    json_object_put(o);
    ck_assert_int_eq(replay_reader_next(rd, &o, &err), 0);
    replay_reader_close(rd);
    remove_dir();
}
END_TEST

/* Read what the FIFO holds now into buf (up to size), from *have on. */
static void take_available(int fd, char *buf, size_t size, size_t *have)
{
    ssize_t n;
    while (*have < size && (n = read(fd, buf + *have, size - *have)) > 0) *have += (size_t)n;
}

/* A FIFO's reader may be reading while the match goes on: the writer streams into it,
 * before the commit, and what it got in all inflates to the lines written. (The pipe is
 * made big enough to hold it all: this test reads it in the writer's own thread.) */
START_TEST(a_fifo_gets_the_replay_as_the_match_goes)
{
    enum { LINES = 300, CAP = 1 << 20 };
    char path[128], line[1100];
    struct replay_writer *w;
    struct replay_error err;
    make_dir();
    path_in_dir(path, sizeof path, "r.fifo");
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    int rd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    ck_assert_int_ge(rd, 0);
    ck_assert_int_ge(fcntl(rd, F_SETPIPE_SZ, CAP), CAP / 2);
    ck_assert_int_eq(replay_writer_open(path, &w, &err), 0);
    char *expected = malloc(CAP), *got = malloc(CAP), *inflated = malloc(CAP);
    size_t expected_len = 0, have = 0;
    for (unsigned i = 0; i < LINES; i++) {
        size_t len = long_line(line, sizeof line, i);
        ck_assert_int_eq(replay_writer_put(w, line, len, &err), 0);
        memcpy(expected + expected_len, line, len);
        expected[expected_len + len] = '\n';
        expected_len += len + 1;
        take_available(rd, got, CAP, &have);
    }
    ck_assert_uint_gt(have, 0); /* some of it came before the commit */
    ck_assert_int_eq(replay_writer_commit(w, &err), 0);
    take_available(rd, got, CAP, &have);
    close(rd);
    z_stream z = {0};
    ck_assert_int_eq(inflateInit2(&z, 16 + MAX_WBITS), Z_OK);
    z.next_in = (Bytef *)got, z.avail_in = (uInt)have;
    z.next_out = (Bytef *)inflated, z.avail_out = CAP;
    ck_assert_int_eq(inflate(&z, Z_FINISH), Z_STREAM_END);
    ck_assert_uint_eq(z.total_out, expected_len);
    ck_assert_mem_eq(inflated, expected, expected_len);
    inflateEnd(&z);
    free(expected), free(got), free(inflated);
    remove_dir();
}
END_TEST

START_TEST(a_missing_directory_is_a_clear_error)
{
    struct replay_writer *w;
    struct replay_error err;
    ck_assert_int_eq(replay_writer_open("/nonexistent-dir/r.jsonl.gz", &w, &err), -1);
    ck_assert_str_eq(err.msg, "/nonexistent-dir/r.jsonl.gz: cannot open its directory: No such file or directory");
}
END_TEST

static void write_many(const char *path, int replies)
{
    struct replay_writer *w;
    struct replay_error err;
    char line[128];
    ck_assert_int_eq(replay_writer_open(path, &w, &err), 0);
    ck_assert_int_eq(replay_writer_put(w, simple[0], strlen(simple[0]), &err), 0);
    for (int i = 1; i <= replies; i++) {
        int n = snprintf(line, sizeof line, "{\"type\":\"reply\",\"n\":%d,\"line\":\"%d %d\"}", i, i * 7919, i);
        ck_assert_int_eq(replay_writer_put(w, line, (size_t)n, &err), 0);
    }
    ck_assert_int_eq(replay_writer_put(w, simple[2], strlen(simple[2]), &err), 0);
    ck_assert_int_eq(replay_writer_commit(w, &err), 0);
}

START_TEST(a_truncated_gzip_file_is_reported_as_truncated)
{
    char path[128], expected[256];
    struct stat st;
    struct replay_error err;
    int objects;
    make_dir();
    path_in_dir(path, sizeof path, "r.jsonl.gz");
    write_many(path, 20000);
    ck_assert_int_eq(read_all(path, &objects, &err), 0);
    ck_assert_int_eq(objects, 20002);
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(truncate(path, st.st_size / 2), 0);
    ck_assert_int_eq(read_all(path, &objects, &err), -1);
    snprintf(expected, sizeof expected, "%s: truncated at line %d", path, objects + 1);
    ck_assert_str_eq(err.msg, expected);
    ck_assert_int_gt(objects, 100);
    remove_dir();
}
END_TEST

START_TEST(a_missing_gzip_trailer_is_truncation)
{
    char path[128], expected[256];
    struct stat st;
    struct replay_error err;
    int objects;
    make_dir();
    path_in_dir(path, sizeof path, "r.jsonl.gz");
    write_lines(path, simple, 3);
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(truncate(path, st.st_size - 4), 0);   /* the ISIZE field */
    ck_assert_int_eq(read_all(path, &objects, &err), -1);
    snprintf(expected, sizeof expected, "%s: truncated at line 4", path);
    ck_assert_str_eq(err.msg, expected);
    remove_dir();
}
END_TEST

START_TEST(corrupt_gzip_data_is_reported)
{
    char path[128];
    struct stat st;
    struct replay_error err;
    int objects;
    make_dir();
    path_in_dir(path, sizeof path, "r.jsonl.gz");
    write_many(path, 2000);
    ck_assert_int_eq(stat(path, &st), 0);
    int fd = open(path, O_RDWR);
    unsigned char junk[64];
    memset(junk, 0x5a, sizeof junk);
    ck_assert_int_eq(pwrite(fd, junk, sizeof junk, st.st_size / 2), (ssize_t)sizeof junk);
    close(fd);
    ck_assert_int_eq(read_all(path, &objects, &err), -1);
    ck_assert_msg(strstr(err.msg, ": corrupt at line ") || strstr(err.msg, ": invalid JSON"), "%s", err.msg);
    remove_dir();
}
END_TEST

/* replay_reader_open_bytes over the bytes of `path`: what read_all gives for the file. */
static int read_all_bytes(const char *path, const unsigned char *data, size_t len, int *objects,
                          struct replay_error *err)
{
    struct replay_reader *rd;
    *objects = 0;
    return replay_reader_open_bytes(data, len, path, &rd, err) < 0 ? -1 : drain(rd, objects, err);
}

/* The file with these bytes read both ways: the same lines and the same verdict (a corrupt
 * stream's zlib message aside). */
static void both_readers_agree(const char *path, const unsigned char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    ck_assert_uint_eq(fwrite(data, 1, len, f), len);
    fclose(f);
    struct replay_error a = {""}, b = {""};
    int na, nb;
    int ra = read_all(path, &na, &a), rb = read_all_bytes(path, data, len, &nb, &b);
    char *pa = strstr(a.msg, " ("), *pb = strstr(b.msg, " (");
    if (pa && strstr(a.msg, ": corrupt at line "))
        *pa = '\0';
    if (pb && strstr(b.msg, ": corrupt at line "))
        *pb = '\0';
    ck_assert_msg(ra == rb && na == nb && !strcmp(a.msg, b.msg), "%zu bytes: file %d %d \"%s\", memory %d %d \"%s\"",
                  len, ra, na, a.msg, rb, nb, b.msg);
}

START_TEST(reading_from_memory_agrees_with_reading_the_file)
{
    char path[128], copy[128];
    make_dir();
    path_in_dir(path, sizeof path, "r.jsonl.gz");
    path_in_dir(copy, sizeof copy, "copy.jsonl.gz");
    write_many(path, 1500); /* over 64 KiB of text: more than one inflating of the buffer */
    FILE *f = fopen(path, "rb");
    static unsigned char data[1 << 20], twice[2 << 20];
    size_t len = fread(data, 1, sizeof data, f);
    fclose(f);
    ck_assert_uint_gt(len, 1000);
    both_readers_agree(copy, data, len);
    for (size_t cut = 0; cut < len; cut += cut < 30 || cut > len - 30 ? 1 : len / 19) /* truncated anywhere */
        both_readers_agree(copy, data, cut);
    for (size_t at = 10; at < len; at += len / 13) { /* one byte changed */
        data[at] ^= 0x55;
        both_readers_agree(copy, data, len);
        data[at] ^= 0x55;
    }
    memcpy(twice, data, len); /* a second member continues the stream: two headers, so an error */
    memcpy(twice + len, data, len);
    both_readers_agree(copy, twice, 2 * len);
    memcpy(twice + len, "trailing garbage", 16); /* bytes after the last member are ignored */
    both_readers_agree(copy, twice, len + 16);
    both_readers_agree(copy, twice, len + 1);
    both_readers_agree(copy, (const unsigned char *)"plain text", 10);
    remove_dir();
}
END_TEST

/* gzip of text, one member, into gz (its size returned). */
static size_t gzip_member(const char *text, unsigned char *gz, size_t cap)
{
    z_stream zs = {0};
    ck_assert_int_eq(deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    zs.next_in = (Bytef *)text;
    zs.avail_in = (uInt)strlen(text);
    zs.next_out = gz;
    zs.avail_out = (uInt)cap;
    ck_assert_int_eq(deflate(&zs, Z_FINISH), Z_STREAM_END);
    size_t len = cap - zs.avail_out;
    deflateEnd(&zs);
    return len;
}

/* 1 when inflate_whole takes the bytes, checking that what it made is text. */
static int whole_takes(const unsigned char *gz, size_t len, size_t max, const char *text)
{
    char *out = NULL;
    size_t n = 0;
    int rc = inflate_whole(gz, len, max, &out, &n);
    if (rc == 1) {
        ck_assert_uint_eq(n, strlen(text));
        ck_assert_mem_eq(out, text, n);
        free(out);
    }
    return rc;
}

START_TEST(inflate_whole_takes_one_trusted_member_and_nothing_else)
{
    const char *text = "{\"type\":\"header\"}\n{\"type\":\"reply\",\"line\":\"1 2 3\"}\n{\"type\":\"result\"}\n";
    static unsigned char gz[4096], twice[8192];
    size_t len = gzip_member(text, gz, sizeof gz), size = strlen(text);
    ck_assert_int_eq(whole_takes(gz, len, size, text), 1);
    ck_assert_int_eq(whole_takes(gz, len, size - 1, text), 0); /* it promises more than the caller allows */
    memcpy(twice, gz, len);
    memcpy(twice + len, gz, len);
    ck_assert_int_eq(whole_takes(twice, 2 * len, 1 << 20, text), 0); /* two members */
    ck_assert_int_eq(whole_takes(twice, len + 1, 1 << 20, text), 0); /* a byte after the member */
    for (size_t cut = 0; cut < len; cut++)
        ck_assert_int_eq(whole_takes(gz, cut, 1 << 20, text), 0);
    for (size_t at = 10; at < len; at++) { /* any byte changed: data, CRC-32 or size */
        gz[at] ^= 0x01;
        int rc = whole_takes(gz, len, 1 << 20, text);
        gz[at] ^= 0x01;
        ck_assert_msg(rc == 0, "byte %zu changed, still taken", at);
    }
}
END_TEST

START_TEST(a_plain_file_is_not_gzip)
{
    char path[128], expected[256];
    struct replay_error err;
    int objects;
    make_dir();
    path_in_dir(path, sizeof path, "plain.jsonl");
    FILE *f = fopen(path, "w");
    fputs(simple[0], f);
    fclose(f);
    ck_assert_int_eq(read_all(path, &objects, &err), -1);
    snprintf(expected, sizeof expected, "%s: not gzip", path);
    ck_assert_str_eq(err.msg, expected);
    remove_dir();
}
END_TEST

static void expect_read_error(const char *const *lines, size_t n, const char *what)
{
    char path[128], expected[256];
    struct replay_error err;
    int objects;
    make_dir();
    path_in_dir(path, sizeof path, "r.jsonl.gz");
    write_lines(path, lines, n);
    ck_assert_int_eq(read_all(path, &objects, &err), -1);
    snprintf(expected, sizeof expected, "%s: %s", path, what);
    ck_assert_str_eq(err.msg, expected);
    remove_dir();
}

START_TEST(bad_lines_are_named_by_number)
{
    const char *const invalid_json[] = {simple[0], "{\"type\":\"reply\",", simple[2]};
    expect_read_error(invalid_json, 3, "line 2, column 17: invalid JSON (the line ends inside a value)");
    const char *const inside[] = {simple[0], "{\"type\":\"reply\",x}", simple[2]};
    expect_read_error(inside, 3, "line 2, column 17: invalid JSON (quoted object property name expected)");
    const char *const trailing[] = {simple[0], "{\"type\":\"reply\"} x", simple[2]};
    expect_read_error(trailing, 3, "line 2, column 18: invalid JSON (text after the value)");
    const char *const no_result[] = {simple[0], simple[1]};
    expect_read_error(no_result, 2, "no result line");
    const char *const after_result[] = {simple[0], simple[2], simple[1]};
    expect_read_error(after_result, 3, "line 3: a line after the result line");
    const char *const no_header[] = {simple[1], simple[2]};
    expect_read_error(no_header, 2, "line 1: not a replay header");
    const char *const untyped[] = {simple[0], "[1,2]", simple[2]};
    expect_read_error(untyped, 3, "line 2: no \"type\"");
}
END_TEST

/* ---- verify and export, on a match scripted through the real engine ------------------ */

static const char tiny_map[] = "2 3 2\n3\n1\n2 40\n4\n1\n3\n";

struct scripted {
    struct match_setup s;
    struct game *g;
    struct strbuf line;
    struct replay_writer *w;
    int asked[3], moves[3], n;
};

static void put_line(struct scripted *m)
{
    struct replay_error err;
    ck_assert_int_eq(replay_writer_put(m->w, m->line.data, m->line.len, &err), 0);
    sb_reset(&m->line);
}

static void put_events(struct scripted *m)
{
    struct strbuf ev = STRBUF_INIT;
    ck_assert_int_eq(m->s.rules->take_events(m->g, &ev), 0);
    for (char *at = ev.data; at && *at;) {
        char *nl = strchr(at, '\n');
        ck_assert_int_eq(replay_record_event(&m->line, at, (size_t)(nl - at)), 0);
        put_line(m);
        at = nl + 1;
    }
    sb_free(&ev);
}

static char *names[] = {"one", "two"};
static char *argv_one[] = {"./pass", NULL};

static void setup_tiny(struct scripted *m)
{
    struct game_error gerr;
    memset(m, 0, sizeof *m);
    m->s.rules = game_find("generals");
    ck_assert_ptr_nonnull(m->s.rules);
    game_params_defaults(m->s.rules, m->s.params);
    ck_assert_int_eq(game_param_set(m->s.rules, m->s.params, "turn_limit", 6, &gerr), 0);
    ck_assert_int_eq(m->s.rules->map_parse(tiny_map, strlen(tiny_map), m->s.params, &m->s.map, &gerr), 0);
    m->s.map_text = (char *)tiny_map;
    m->s.map_source = "tiny.map";
    m->s.seed = 7;
    m->s.n_players = 2;
    for (int p = 0; p < 2; p++)
        m->s.players[p] = (struct match_player){.name = names[p], .argv = argv_one, .argc = 1, .profile = "default"};
}

/* Both bots reply from script[] in turn (cycling); writes the whole replay. */
static void play_scripted(const char *path, const char *const *script, size_t n_script)
{
    struct scripted m;
    struct replay_error err;
    struct host_info host = {"kernel", "cpu", "test"};
    setup_tiny(&m);
    struct game_setup gs = {m.s.map, m.s.params, m.s.seed, 2};
    struct game_error gerr;
    ck_assert_int_eq(m.s.rules->create(&gs, &m.g, &gerr), 0);
    ck_assert_int_eq(replay_writer_open(path, &m.w, &err), 0);
    ck_assert_int_eq(replay_record_header(&m.line, &m.s, NULL, &host, 0), 0);
    put_line(&m);
    put_events(&m);
    struct match_outcome o = {.players = 2};
    for (size_t turn = 0; !m.s.rules->over(m.g); turn++) {
        int p, round = m.s.rules->round(m.g);
        ck_assert_int_eq(m.s.rules->pending(m.g, &p, 1), 1);
        const char *text = script[turn % n_script];
        struct replay_reply r = {++m.n, p, round, ++m.asked[p], text, strlen(text), 1000, 2000};
        ck_assert_int_eq(replay_record_reply(&m.line, &r), 0);
        put_line(&m);
        struct game_verdict v = {0};
        ck_assert_int_eq(m.s.rules->submit(m.g, p, &text, 1, &v), 0);
        m.moves[p] += v.kind == VIOLATION_NONE;
        if (v.kind != VIOLATION_NONE) {
            struct match_violation mv = {.kind = v.kind, .verdict = match_verdict_of(v.kind, false),
                                         .by_game = true, .round = round, .reply = m.asked[p]};
            o.p[p].violation = mv;
            o.p[p].verdict = mv.verdict;
            ck_assert_int_eq(replay_record_violation(&m.line, p, &mv, ""), 0);
            put_line(&m);
        }
        put_events(&m);
    }
    struct game_result gr;
    ck_assert_int_eq(m.s.rules->result(m.g, &gr), 0);
    o.winner = gr.winner;
    o.draw = gr.draw;
    o.rounds = gr.rounds;
    o.replies = m.n;
    for (int p = 1; p <= 2; p++) {
        o.p[p].player = p;
        o.p[p].place = gr.p[p].place;
        o.p[p].points = gr.p[p].points;
        o.p[p].moves = m.moves[p];
        memcpy(o.p[p].stats, gr.p[p].stats, sizeof o.p[p].stats);
    }
    ck_assert_int_eq(replay_record_result(&m.line, &m.s, &o, 5), 0);
    put_line(&m);
    ck_assert_int_eq(replay_writer_commit(m.w, &err), 0);
    m.s.rules->destroy(m.g);
    m.s.rules->map_free(m.s.map);
    sb_free(&m.line);
}

/* Rewrite a replay with line `line_no` (1-based) replaced. */
static void replace_line(const char *path, int line_no, const char *text)
{
    struct replay_reader *rd;
    struct replay_error err;
    struct json_object *o;
    struct strbuf all = STRBUF_INIT;
    ck_assert_int_eq(replay_reader_open(path, &rd, &err), 0);
    while (replay_reader_next(rd, &o, &err) == 1) {
        size_t len;
        const char *raw = replay_reader_text(rd, &len);
        if (replay_reader_line_no(rd) == line_no)
            sb_puts(&all, text);
        else
            sb_append(&all, raw, len);
        sb_putc(&all, '\n');
        json_object_put(o);
    }
    replay_reader_close(rd);
    gzFile gz = gzopen(path, "wb");
    gzwrite(gz, all.data, (unsigned)all.len);
    gzclose(gz);
    sb_free(&all);
}

static const char *const passes[] = {"-1"};

START_TEST(verify_accepts_a_faithful_replay)
{
    char path[128];
    struct replay_verify_report rep;
    struct replay_error err;
    make_dir();
    path_in_dir(path, sizeof path, "m.jsonl.gz");
    play_scripted(path, passes, 1);
    ck_assert_msg(replay_verify(path, NULL, &rep, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(rep.replies, 12);   /* 6 rounds, 2 players */
    remove_dir();
}
END_TEST

START_TEST(verify_accepts_a_replay_with_an_engine_violation)
{
    char path[128];
    struct replay_verify_report rep;
    struct replay_error err;
    static const char *const script[] = {"-1", "-1", "-1", "-1", "1 1 1 2 3"};
    make_dir();
    path_in_dir(path, sizeof path, "m.jsonl.gz");
    play_scripted(path, script, 5);
    ck_assert_msg(replay_verify(path, NULL, &rep, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(rep.replies, 5);
    remove_dir();
}
END_TEST

START_TEST(verify_finds_a_changed_reply)
{
    char path[128], expected[256];
    struct replay_error err;
    make_dir();
    path_in_dir(path, sizeof path, "m.jsonl.gz");
    play_scripted(path, passes, 1);
    /* Line 1 header, line 2 the start event, line 3 the first reply, line 4 its pass event. */
    replace_line(path, 3, "{\"type\":\"reply\",\"n\":1,\"player\":1,\"round\":1,\"reply\":1,\"line\":\"hello\"}");
    ck_assert_int_eq(replay_verify(path, NULL, NULL, &err), -1);
    snprintf(expected, sizeof expected, "%s: line 4: recorded ", path);
    ck_assert_msg(!strncmp(err.msg, expected, strlen(expected)), "%s", err.msg);
    ck_assert_msg(strstr(err.msg, "but the engine gives"), "%s", err.msg);
    remove_dir();
}
END_TEST

START_TEST(verify_finds_a_changed_event)
{
    char path[128], expected[256];
    struct replay_error err;
    make_dir();
    path_in_dir(path, sizeof path, "m.jsonl.gz");
    play_scripted(path, passes, 1);
    replace_line(path, 4, "{\"type\":\"event\",\"event\":{\"t\":\"pass\",\"round\":1,\"player\":2}}");
    ck_assert_int_eq(replay_verify(path, NULL, NULL, &err), -1);
    snprintf(expected, sizeof expected, "%s: line 4: recorded {\"t\":\"pass\",\"round\":1,\"player\":2} but "
             "the engine gives {\"t\":\"pass\",\"round\":1,\"player\":", path);
    ck_assert_msg(!strncmp(err.msg, expected, strlen(expected)), "%s", err.msg);
    remove_dir();
}
END_TEST

START_TEST(verify_finds_a_changed_result)
{
    char path[128], expected[256];
    struct replay_error err;
    struct replay_verify_report rep;
    make_dir();
    path_in_dir(path, sizeof path, "m.jsonl.gz");
    play_scripted(path, passes, 1);
    ck_assert_int_eq(replay_verify(path, NULL, &rep, &err), 0);
    replace_line(path, rep.lines, "{\"type\":\"result\",\"winner\":2,\"draw\":false,\"rounds\":6,\"replies\":12,"
                                  "\"players\":[]}");
    ck_assert_int_eq(replay_verify(path, NULL, NULL, &err), -1);
    snprintf(expected, sizeof expected, "%s: line %d: recorded {\"type\":\"result\",\"winner\":2", path, rep.lines);
    ck_assert_msg(!strncmp(err.msg, expected, strlen(expected)), "%s", err.msg);
    remove_dir();
}
END_TEST

START_TEST(verify_reports_truncation)
{
    char path[128], expected[256];
    struct replay_error err;
    struct stat st;
    make_dir();
    path_in_dir(path, sizeof path, "m.jsonl.gz");
    play_scripted(path, passes, 1);
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(truncate(path, st.st_size - 10), 0);
    ck_assert_int_eq(replay_verify(path, NULL, NULL, &err), -1);
    snprintf(expected, sizeof expected, "%s: truncated at line ", path);
    ck_assert_msg(!strncmp(err.msg, expected, strlen(expected)), "%s", err.msg);
    remove_dir();
}
END_TEST

START_TEST(export_writes_the_generals_log)
{
    char path[128], out[128];
    struct replay_error err;
    struct strbuf log = STRBUF_INIT;
    make_dir();
    path_in_dir(path, sizeof path, "m.jsonl.gz");
    path_in_dir(out, sizeof out, "m.log");
    play_scripted(path, passes, 1);
    ck_assert_msg(replay_export(path, "generals-log", NULL, &log, &err) == 0, "%s", err.msg);
    ck_assert(!strncmp(log.data, "2 3 2 0\n", 8));
    ck_assert(log.len >= 2 && !strcmp(log.data + log.len - 3, "\n0\n"));
    ck_assert_int_eq(replay_export(path, "generals-log", out, NULL, &err), 0);
    FILE *f = fopen(out, "r");
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    ck_assert_uint_eq(n, log.len);
    ck_assert_mem_eq(buf, log.data, n);
    ck_assert_int_eq(replay_export(path, "seabattle-log", NULL, &log, &err), -1);
    ck_assert_msg(strstr(err.msg, "a generals replay exports as --format generals-log"), "%s", err.msg);
    sb_free(&log);
    remove_dir();
}
END_TEST

/* The header's "isolation": one object when all players had the same layers, else one each. */
static struct json_object *header_isolation(const struct isolation_report *a, const struct isolation_report *b)
{
    struct scripted m;
    struct host_info host = {"kernel", "cpu", "test"};
    const struct isolation_report *iso[2] = {a, b};
    setup_tiny(&m);
    ck_assert_int_eq(replay_record_header(&m.line, &m.s, iso, &host, 0), 0);
    struct json_object *h = json_tokener_parse(m.line.data), *o = NULL;
    ck_assert_ptr_nonnull(h);
    ck_assert(json_object_object_get_ex(h, "isolation", &o));
    json_object_get(o);
    json_object_put(h);
    m.s.rules->map_free(m.s.map);
    sb_free(&m.line);
    return o;
}

START_TEST(header_isolation_is_common_or_per_player)
{
    struct isolation_report strict = {.cgroup_backend = "v1", .privileged = true}, weak = strict;
    struct json_object *o, *v;
    weak.state[LAYER_SECCOMP] = LAYER_OFF;
    snprintf(weak.how[LAYER_SECCOMP], sizeof weak.how[LAYER_SECCOMP], "not available");
    weak.degraded = true;
    o = header_isolation(&strict, &strict);
    ck_assert(json_object_is_type(o, json_type_object));
    ck_assert(json_object_object_get_ex(o, "seccomp", &v));
    ck_assert_str_eq(json_object_get_string(v), "on");
    json_object_put(o);
    o = header_isolation(&strict, &weak);
    ck_assert(json_object_is_type(o, json_type_array));
    ck_assert_uint_eq(json_object_array_length(o), 2);
    ck_assert(json_object_object_get_ex(json_object_array_get_idx(o, 1), "how", &v));
    ck_assert(json_object_object_get_ex(v, "seccomp", &v));
    ck_assert_str_eq(json_object_get_string(v), "not available");
    json_object_put(o);
}
END_TEST

static Suite *replay_suite(void)
{
    Suite *s = suite_create("replay");
    TCase *io = tcase_create("io");
    tcase_add_test(io, written_lines_read_back_in_order);
    tcase_add_test(io, commit_leaves_one_file_of_mode_0644_and_no_temporary);
    tcase_add_test(io, abort_leaves_nothing);
    tcase_add_test(io, a_replay_past_the_memory_it_is_kept_in_reads_back_whole);
    tcase_add_test(io, a_fifo_gets_the_replay_as_the_match_goes);
    tcase_add_test(io, a_missing_directory_is_a_clear_error);
    tcase_add_test(io, a_truncated_gzip_file_is_reported_as_truncated);
    tcase_add_test(io, a_missing_gzip_trailer_is_truncation);
    tcase_add_test(io, corrupt_gzip_data_is_reported);
    tcase_add_test(io, a_plain_file_is_not_gzip);
    tcase_add_test(io, reading_from_memory_agrees_with_reading_the_file);
    tcase_add_test(io, inflate_whole_takes_one_trusted_member_and_nothing_else);
    tcase_add_test(io, bad_lines_are_named_by_number);
    suite_add_tcase(s, io);
    TCase *verify = tcase_create("verify");
    tcase_add_test(verify, header_isolation_is_common_or_per_player);
    tcase_add_test(verify, verify_accepts_a_faithful_replay);
    tcase_add_test(verify, verify_accepts_a_replay_with_an_engine_violation);
    tcase_add_test(verify, verify_finds_a_changed_reply);
    tcase_add_test(verify, verify_finds_a_changed_event);
    tcase_add_test(verify, verify_finds_a_changed_result);
    tcase_add_test(verify, verify_reports_truncation);
    tcase_add_test(verify, export_writes_the_generals_log);
    suite_add_tcase(s, verify);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(replay_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
