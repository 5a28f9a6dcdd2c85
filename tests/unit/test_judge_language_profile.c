/* test_judge_language_profile.c - language profiles (every shipped one, every error
 * with its position, no crash on garbage), their word templates, the listing of a
 * submission's sources, the build manifest, a compiled bot's run spec, the compile record. */
#include <check.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "judge/compile/compile_internal.h"
#include "judge/compile/language_profile.h"
#include "sandbox/fs_safe.h"

static char tmpdir[64];
static char path[256]; /* tmpdir/t.yaml: the profile under test */

static void write_file(const char *file, const char *text, size_t len)
{
    int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
    close(fd);
}

static void make_fixture(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/test_language_profile.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    snprintf(path, sizeof path, "%s/t.yaml", tmpdir);
}

static void remove_fixture(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
}

#define STEPS                                                                                                \
    "compile:\n"                                                                                             \
    "  command: [/usr/bin/gcc, -o, '${OUT}/bot', '${SOURCES}']\n"                                            \
    "  seccomp: compiler\n"                                                                                  \
    "run:\n"                                                                                                 \
    "  command: [./bot]\n"                                                                                   \
    "  seccomp: default\n"
#define MINIMAL "name: t\nsources: ['*.c']\n" STEPS

static int load_text(const char *yaml, struct language_profile *p, struct lp_error *err)
{
    write_file(path, yaml, strlen(yaml));
    return language_profile_load(path, p, err);
}

/* The file must be rejected with exactly "PATH:" + where_and_what. */
static void expect_error(const char *yaml, const char *where_and_what)
{
    struct language_profile p;
    struct lp_error err;
    ck_assert_int_eq(load_text(yaml, &p, &err), -1);
    char want[1024];
    snprintf(want, sizeof want, "%s:%s", path, where_and_what);
    ck_assert_str_eq(err.msg, want);
}

/* ---- the shipped profiles ------------------------------------------------------------ */

static void load_shipped(const char *name, struct language_profile *p)
{
    struct lp_error err;
    ck_assert_msg(language_profile_find(name, NULL, p, &err) == 0, "%s", err.msg);
    ck_assert_str_eq(p->name, name);
}

START_TEST(shipped_c)
{
    struct language_profile p;
    load_shipped("c", &p);
    ck_assert_str_eq(p.sources[0], "*.c");
    ck_assert_str_eq(p.compile.words[0], "/usr/bin/gcc");
    ck_assert_str_eq(p.compile.seccomp, "compiler");
    ck_assert_str_eq(p.run.words[0], "${BOT}/bot");
    ck_assert_str_eq(p.run.seccomp, "default");
    ck_assert_uint_eq(p.run_limits.memory_extra_bytes, 0);
    ck_assert_uint_eq(p.compile_limits.cpu_ns, 10000000000ull);
    ck_assert_uint_eq(p.compile_limits.file_size_bytes, 64ull << 20);
    ck_assert_uint_eq(p.compile_limits.output_bytes, 256u << 10);
    ck_assert_uint_eq(p.n_entry, 0);
    language_profile_free(&p);
}
END_TEST

START_TEST(shipped_cpp_python_java)
{
    struct language_profile p;
    load_shipped("cpp", &p);
    ck_assert_str_eq(p.compile.words[0], "/usr/bin/g++");
    ck_assert_uint_eq(p.n_sources, 2);
    language_profile_free(&p);
    load_shipped("python3", &p);
    ck_assert_str_eq(p.entry[0], "main.py");
    ck_assert_str_eq(p.run.seccomp, "interpreter");
    ck_assert_uint_eq(p.run_limits.memory_extra_bytes, 16ull << 20);
    language_profile_free(&p);
    load_shipped("java", &p);
    ck_assert_str_eq(p.mounts[0], "/etc/java-17-openjdk");
    ck_assert_str_eq(p.entry[1], "Bot.java");
    ck_assert_uint_ge(p.run_limits.pids, 32);
    ck_assert_uint_ge(p.run_limits.memory_extra_bytes, 128ull << 20);
    language_profile_free(&p);
}
END_TEST

/* ---- errors, each at its place ------------------------------------------------------------ */

START_TEST(minimal_profile_and_defaults)
{
    struct language_profile p;
    struct lp_error err;
    ck_assert_msg(load_text(MINIMAL, &p, &err) == 0, "%s", err.msg);
    ck_assert_uint_eq(p.compile.n_words, 4);
    ck_assert_ptr_null(p.compile.words[4]);
    ck_assert_uint_eq(p.compile_limits.pids, 32);
    ck_assert_uint_eq(p.compile_limits.wall_ns, 30000000000ull);
    ck_assert_uint_eq(p.run_limits.pids, 0);
    ck_assert_ptr_null(p.language);
    language_profile_free(&p);
}
END_TEST

START_TEST(unknown_and_missing_keys)
{
    expect_error(MINIMAL "colour: blue\n", "9:1: unknown key 'colour' in a language profile");
    expect_error("name: t\nsources: ['*.c']\nrun:\n  command: [./bot]\n  seccomp: default\n",
                 "1:1: missing key 'compile'");
    expect_error("name: t\nsources: ['*.c']\ncompile:\n  seccomp: compiler\nrun:\n  command: [./bot]\n  "
                 "seccomp: default\n",
                 "4:3: compile: missing key 'command'");
    expect_error("name: t\nsources: ['*.c']\ncompile:\n  command: [/bin/true]\n  seccomp: compiler\n  "
                 "limits:\n    cpu_s: 3\nrun:\n  command: [./bot]\n  seccomp: default\n",
                 "7:5: unknown limit 'cpu_s'");
}
END_TEST

START_TEST(bad_values)
{
    expect_error("name: other\nsources: ['*.c']\n" STEPS,
                 "1:7: name 'other' must match the file name (other.yaml)");
    expect_error("name: T\nsources: ['*.c']\n" STEPS,
                 "1:7: name must be 1 to 32 characters of a-z, 0-9, '_', '-'");
    expect_error("name: t\nsources: []\n" STEPS, "2:10: sources must not be empty");
    expect_error("name: t\nsources: ['../*.c']\n" STEPS,
                 "2:11: sources: a file name pattern (no '/', not starting with '-')");
    expect_error(MINIMAL "mounts: [etc/java]\n", "9:10: mounts: an absolute path without '.', '..' or '//'");
    expect_error(MINIMAL "mounts: [/etc/../root]\n",
                 "9:10: mounts: an absolute path without '.', '..' or '//'");
    expect_error("name: t\nsources: ['*.c']\ncompile:\n  command: [gcc]\n  seccomp: compiler\nrun:\n  "
                 "command: [./bot]\n  seccomp: default\n",
                 "4:12: command must start with an absolute path, ./NAME or a variable");
    expect_error("name: t\nsources: ['*.c']\ncompile:\n  command: []\n  seccomp: compiler\nrun:\n  command: "
                 "[./bot]\n  seccomp: default\n",
                 "4:12: command must not be empty");
    expect_error("name: t\nsources: ['*.c']\ncompile:\n  command: [/bin/true]\n  seccomp: compiler\n  env: "
                 "[NOEQUALS]\n"
                 "run:\n  command: [./bot]\n  seccomp: default\n",
                 "6:9: env: each entry is NAME=VALUE");
    expect_error(
        "name: t\nsources: ['*.c']\ncompile:\n  command: [/bin/true]\n  seccomp: compiler\n  limits:\n"
        "    memory_mb: 1\nrun:\n  command: [./bot]\n  seccomp: default\n",
        "7:16: memory_mb must be between 16 and 65536");
    expect_error("name: t\nsources: ['*.c']\ncompile:\n  command: [/bin/true]\n  seccomp: compiler\n  "
                 "seccomp_allow: [Ptrace]\n"
                 "run:\n  command: [./bot]\n  seccomp: default\n",
                 "6:19: seccomp_allow: a system call name (a-z, 0-9, '_')");
}
END_TEST

START_TEST(bad_variables)
{
    expect_error("name: t\nsources: ['*.c']\ncompile:\n  command: [/bin/cc, '${SRCS}']\n  seccomp: compiler\n"
                 "run:\n  command: [./bot]\n  seccomp: default\n",
                 "4:22: unknown variable '${SRCS}' here");
    expect_error(
        "name: t\nsources: ['*.c']\ncompile:\n  command: [/bin/cc, '-I${SOURCES}']\n  seccomp: compiler\n"
        "run:\n  command: [./bot]\n  seccomp: default\n",
        "4:22: ${SOURCES} must be a whole word");
    expect_error("name: t\nsources: ['*.c']\ncompile:\n  command: [/bin/cc, '${OUT']\n  seccomp: compiler\n"
                 "run:\n  command: [./bot]\n  seccomp: default\n",
                 "4:22: unterminated '${' in '${OUT'");
    expect_error("name: t\nsources: ['*.c']\ncompile:\n  command: [/bin/cc]\n  seccomp: compiler\n"
                 "run:\n  command: [./bot, '${ENTRY}']\n  seccomp: default\n",
                 "7:20: ${ENTRY} needs an 'entry' list in the profile");
    /* OUT belongs to the compile step, MEMORY_MB to the run step. */
    expect_error(
        "name: t\nsources: ['*.c']\ncompile:\n  command: [/bin/cc, '${MEMORY_MB}']\n  seccomp: compiler\n"
        "run:\n  command: [./bot]\n  seccomp: default\n",
        "4:22: unknown variable '${MEMORY_MB}' here");
    expect_error("name: t\nsources: ['*.c']\ncompile:\n  command: [/bin/cc]\n  seccomp: compiler\n"
                 "run:\n  command: [./bot, '${OUT}']\n  seccomp: default\n",
                 "7:20: unknown variable '${OUT}' here");
}
END_TEST

START_TEST(not_yaml_or_empty)
{
    expect_error("", "1:1: empty file: a language profile is a mapping");
    struct language_profile p;
    struct lp_error err;
    ck_assert_int_eq(load_text("name: [t\n", &p, &err), -1);
    ck_assert_msg(!strncmp(err.msg, path, strlen(path)) && err.msg[strlen(path)] == ':', "%s", err.msg);
    ck_assert_int_eq(load_text("- a\n- b\n", &p, &err), -1);
    ck_assert_msg(strstr(err.msg, ":1:1: expected a mapping for a language profile, got a sequence"), "%s",
                  err.msg);
}
END_TEST

/* A rejected file gives one line naming it; an accepted one frees cleanly. */
static void load_must_not_crash(const char *text, size_t len)
{
    struct language_profile p;
    struct lp_error err;
    write_file(path, text, len);
    if (language_profile_load(path, &p, &err) == 0) {
        language_profile_free(&p);
        return;
    }
    ck_assert_msg(!strncmp(err.msg, path, strlen(path)), "%s", err.msg);
    ck_assert_msg(!strchr(err.msg, '\n'), "%s", err.msg);
}

START_TEST(truncation_and_mutation_fuzz)
{
    static const char text[] = MINIMAL "entry: [main.c]\nmounts: [/etc]\n";
    static const char replacements[] = {'\0', ':', '-', '[',  '{',  '$',    '}',
                                        '\'', '&', '*', '\t', '\n', '\xff', ' '};
    size_t len = strlen(text);
    char copy[sizeof text];
    for (size_t cut = 0; cut <= len; cut++) load_must_not_crash(text, cut);
    for (size_t at = 0; at < len; at++)
        for (size_t r = 0; r < sizeof replacements; r++) {
            memcpy(copy, text, len + 1);
            copy[at] = replacements[r];
            load_must_not_crash(copy, len);
        }
}
END_TEST

/* ---- lookup --------------------------------------------------------------------------------- */

START_TEST(lookup_by_name_and_path)
{
    struct language_profile p;
    struct lp_error err;
    char file[300], dir_out[4096];
    snprintf(file, sizeof file, "%s/t.yaml", tmpdir);
    write_file(file, MINIMAL, strlen(MINIMAL));
    ck_assert_msg(language_profile_find("t", tmpdir, &p, &err) == 0, "%s", err.msg);
    language_profile_free(&p);
    ck_assert_msg(language_profile_find(file, NULL, &p, &err) == 0, "%s", err.msg);
    language_profile_free(&p);
    setenv(LP_PROFILES_ENV, tmpdir, 1);
    ck_assert_int_eq(language_profile_dir(NULL, dir_out, sizeof dir_out, &err), 0);
    ck_assert_str_eq(dir_out, tmpdir);
    ck_assert_int_eq(language_profile_find("t", NULL, &p, &err), 0);
    language_profile_free(&p);
    unsetenv(LP_PROFILES_ENV);
    ck_assert_int_eq(language_profile_find("nope", tmpdir, &p, &err), -1);
    char want[300];
    snprintf(want, sizeof want, "no language profile 'nope' in %s (profiles: t)", tmpdir);
    ck_assert_str_eq(err.msg, want);
    ck_assert_int_eq(language_profile_find("C", tmpdir, &p, &err), -1);
    ck_assert_str_eq(err.msg, "profile name 'C' is not 1 to 32 characters of a-z, 0-9, '_', '-'");
    ck_assert_int_eq(language_profile_dir("/nonexistent/x", dir_out, sizeof dir_out, &err), -1);
    ck_assert_str_eq(err.msg, "profiles directory /nonexistent/x (--profiles): not a directory");
}
END_TEST

/* ---- word templates -------------------------------------------------------------------------- */

START_TEST(expand_words)
{
    const char *words[] = {"/bin/cc", "-o", "${OUT}/bot", "${SOURCES}", "-DX=${A}${A}", "$plain", NULL};
    const char *vars[] = {"OUT=/data", "A=ab", NULL};
    const char *srcs[] = {"a.c", "b c.c"};
    struct lp_list lists[] = {{"SOURCES", srcs, 2}};
    struct lp_error err;
    char **out = lp_expand(words, vars, lists, 1, &err);
    ck_assert_ptr_nonnull(out);
    const char *want[] = {"/bin/cc", "-o", "/data/bot", "a.c", "b c.c", "-DX=abab", "$plain", NULL};
    for (size_t i = 0; want[i]; i++) ck_assert_str_eq(out[i], want[i]);
    ck_assert_ptr_null(out[7]);
    lp_words_free(out);
    const char *bad[] = {"${NOPE}", NULL};
    ck_assert_ptr_null(lp_expand(bad, vars, NULL, 0, &err));
    ck_assert_str_eq(err.msg, "no value for the variable in '${NOPE}'");
    /* A list with no entries removes the word. */
    struct lp_list empty[] = {{"SOURCES", srcs, 0}};
    const char *only[] = {"${SOURCES}", "x", NULL};
    out = lp_expand(only, vars, empty, 1, &err);
    ck_assert_str_eq(out[0], "x");
    ck_assert_ptr_null(out[1]);
    lp_words_free(out);
}
END_TEST

/* ---- sources and entries ----------------------------------------------------------------------- */

static void touch(const char *name)
{
    char file[300];
    snprintf(file, sizeof file, "%s/%s", tmpdir, name);
    write_file(file, "x\n", 2);
}

static void unlink_in_tmpdir(const char *name)
{
    char file[300];
    snprintf(file, sizeof file, "%s/%s", tmpdir, name);
    ck_assert_int_eq(unlink(file), 0);
}

static struct language_profile profile_with(const char *sources, const char *entry)
{
    char text[1024];
    snprintf(text, sizeof text,
             "name: t\nsources: %s\n%s%s%scompile:\n  command: [/bin/true]\n  seccomp: compiler\n"
             "run:\n  command: [./bot]\n  seccomp: default\n",
             sources, entry ? "entry: " : "", entry ? entry : "", entry ? "\n" : "");
    struct language_profile p;
    struct lp_error err;
    ck_assert_msg(load_text(text, &p, &err) == 0, "%s", err.msg);
    return p;
}

START_TEST(sources_in_name_order)
{
    touch("b.c");
    touch("a.c");
    touch("notes.txt");
    touch(".hidden.c");
    char sub[300], link[300];
    snprintf(sub, sizeof sub, "%s/dir.c", tmpdir);
    ck_assert_int_eq(mkdir(sub, 0755), 0);
    snprintf(link, sizeof link, "%s/link.c", tmpdir);
    ck_assert_int_eq(symlink("/etc/passwd", link), 0);
    struct language_profile p = profile_with("['*.c']", NULL);
    struct compile_sources s;
    struct compile_error err;
    char problem[400] = "";
    ck_assert_int_eq(compile_sources_list(&p, tmpdir, &s, problem, sizeof problem, &err), 0);
    ck_assert_uint_eq(s.n, 2);
    ck_assert_str_eq(s.names[0], "a.c");
    ck_assert_str_eq(s.names[1], "b.c");
    ck_assert_ptr_null(s.entry);
    compile_sources_free(&s);
    touch("-fplugin=x.c");
    ck_assert_int_eq(compile_sources_list(&p, tmpdir, &s, problem, sizeof problem, &err), 1);
    ck_assert_str_eq(
        problem,
        "judge: file name '-fplugin=x.c' is not allowed (letters, digits, '.', '_', '+', '-', not starting "
        "with '-')");
    compile_sources_free(&s);
    unlink_in_tmpdir("-fplugin=x.c");
    const char *const unsafe[] = {"::stop-commands::x.c", "@args.c", "notes (1).txt", "a\033[2J.h", "##[x.h"};
    for (size_t i = 0; i < sizeof unsafe / sizeof *unsafe; i++) { /* any file, not only a source */
        touch(unsafe[i]);
        ck_assert_int_eq(compile_sources_list(&p, tmpdir, &s, problem, sizeof problem, &err), 1);
        ck_assert_msg(strstr(problem, "is not allowed"), "%s: %s", unsafe[i], problem);
        compile_sources_free(&s);
        unlink_in_tmpdir(unsafe[i]);
    }
    language_profile_free(&p);
}
END_TEST

START_TEST(no_sources_and_entries)
{
    struct compile_sources s;
    struct compile_error err;
    char problem[400];
    struct language_profile p = profile_with("['*.java', '*.jav']", "[Main.java, Bot.java]");
    ck_assert_int_eq(compile_sources_list(&p, tmpdir, &s, problem, sizeof problem, &err), 1);
    ck_assert_str_eq(problem, "judge: no source file (*.java, *.jav) in the submission");
    compile_sources_free(&s);
    touch("Random.java");
    ck_assert_int_eq(compile_sources_list(&p, tmpdir, &s, problem, sizeof problem, &err), 0);
    ck_assert_str_eq(s.entry, "Random.java"); /* the only source */
    compile_sources_free(&s);
    touch("Helper.java");
    ck_assert_int_eq(compile_sources_list(&p, tmpdir, &s, problem, sizeof problem, &err), 1);
    ck_assert_str_eq(problem,
                     "judge: 2 source files and none is the entry: name the main one Main.java or Bot.java");
    compile_sources_free(&s);
    touch("Bot.java");
    touch("Main.java");
    ck_assert_int_eq(compile_sources_list(&p, tmpdir, &s, problem, sizeof problem, &err), 0);
    ck_assert_str_eq(s.entry, "Main.java"); /* the first name of the list */
    compile_sources_free(&s);
    ck_assert_int_eq(compile_sources_list(&p, "/nonexistent", &s, problem, sizeof problem, &err), -1);
    ck_assert_str_eq(err.msg, "/nonexistent: No such file or directory");
    language_profile_free(&p);
}
END_TEST

/* ---- the manifest and the run spec -------------------------------------------------------------- */

static int open_tmpdir(void)
{
    struct jail_error jerr;
    int fd = fs_safe_open_dir(tmpdir, &jerr);
    ck_assert_msg(fd >= 0, "%s", jerr.msg);
    return fd;
}

START_TEST(run_spec_from_manifest)
{
    struct language_profile p;
    load_shipped("java", &p);
    struct compile_error err;
    struct compiled_bot b;
    int fd = open_tmpdir();
    ck_assert_int_eq(compiled_bot_load(&p, tmpdir, 256ull << 20, 64, &b, &err), -1);
    ck_assert_msg(strstr(err.msg, "is not a compiled bot"), "%s", err.msg);
    ck_assert_int_eq(compile_manifest_write(fd, "java", "Random.java", &err), 0);
    ck_assert_msg(compiled_bot_load(&p, tmpdir, 256ull << 20, 16, &b, &err) == 0, "%s", err.msg);
    size_t n = 0;
    while (b.argv[n]) n++;
    ck_assert_str_eq(b.argv[0], "/usr/bin/java");
    ck_assert_str_eq(b.argv[1], "-XX:MaxRAM=448m"); /* 256 + the JVM's 192 */
    ck_assert_str_eq(b.argv[n - 3], "-cp");
    ck_assert_str_eq(b.argv[n - 2], "/bot");
    ck_assert_str_eq(b.argv[n - 1], "Random");
    ck_assert_uint_eq(b.memory_bytes, 448ull << 20);
    ck_assert_uint_eq(b.pids, 48); /* the JVM's need over the match's 16 */
    ck_assert_str_eq(b.seccomp, "jvm");
    ck_assert_str_eq(b.mounts[0], "/etc/java-17-openjdk");
    ck_assert_str_eq(b.env[0], "PATH=/usr/local/bin:/usr/bin:/bin");
    struct jail_spec spec = {0};
    compiled_bot_jail_spec(&b, &spec);
    ck_assert_str_eq(spec.dir, tmpdir);
    ck_assert_str_eq(spec.extra_ro_binds[0], "/etc/java-17-openjdk");
    ck_assert_uint_eq(spec.limits.memory_bytes, 448ull << 20);
    compiled_bot_free(&b);
    language_profile_free(&p);
    load_shipped("c", &p);
    ck_assert_int_eq(compiled_bot_load(&p, tmpdir, 256ull << 20, 64, &b, &err), -1);
    char want[300];
    snprintf(want, sizeof want, "%s was compiled with profile java, not c", tmpdir);
    ck_assert_str_eq(err.msg, want);
    ck_assert_int_eq(compile_manifest_write(fd, "c", NULL, &err), 0);
    ck_assert_msg(compiled_bot_load(&p, tmpdir, 256ull << 20, 64, &b, &err) == 0, "%s", err.msg);
    ck_assert_str_eq(b.argv[0], "/bot/bot");
    ck_assert_ptr_null(b.argv[1]);
    ck_assert_uint_eq(b.pids, 64);
    compiled_bot_jail_spec(&b, &spec);
    ck_assert_ptr_null(spec.extra_ro_binds);
    compiled_bot_free(&b);
    language_profile_free(&p);
    close(fd);
}
END_TEST

START_TEST(seccomp_additions_are_registered)
{
    struct language_profile p;
    struct lp_error lerr;
    ck_assert_msg(
        load_text("name: t\nsources: ['*.c']\ncompile:\n  command: [/bin/true]\n  seccomp: compiler\n"
                  "run:\n  command: [./bot]\n  seccomp: default\n  seccomp_allow: [sched_setattr]\n",
                  &p, &lerr) == 0,
        "%s", lerr.msg);
    char name[64];
    struct compile_error err;
    ck_assert_int_eq(compile_seccomp_profile("t", "run", &p.run, name, sizeof name, &err), 0);
    ck_assert_str_eq(name, "t-run");
    ck_assert_int_eq(compile_seccomp_profile("t", "run", &p.run, name, sizeof name, &err),
                     0); /* again: reused */
    ck_assert_int_eq(compile_seccomp_profile("t", "compile", &p.compile, name, sizeof name, &err), 0);
    ck_assert_str_eq(name, "compiler");
    free(p.run.seccomp);
    p.run.seccomp = strdup("nosuch");
    ck_assert_int_eq(compile_seccomp_profile("t", "run", &p.run, name, sizeof name, &err), -1);
    ck_assert_str_eq(err.msg, "profile t: run: unknown seccomp profile 'nosuch'");
    language_profile_free(&p);
}
END_TEST

/* ---- the compile record -------------------------------------------------------------------------- */

START_TEST(record_one_gzip_json_line)
{
    static struct compile_result r;
    memset(&r, 0, sizeof r);
    r.verdict = COMPILE_ERROR;
    r.exit_code = 1;
    snprintf(r.messages, sizeof r.messages, "bot.c:1:1: error: \"x\"\n\t\xc3\xa9");
    r.messages_len = strlen(r.messages);
    r.cpu_ns = 123;
    r.wall_ns = 456;
    struct compile_record rec = {"alice", "c", "submissions/alice", &r};
    struct compile_error err;
    ck_assert_msg(compile_record_write(tmpdir, &rec, &err) == 0, "%s", err.msg);
    char file[300], line[70000];
    snprintf(file, sizeof file, "%s/compile/alice.jsonl.gz", tmpdir);
    gzFile gz = gzopen(file, "rb");
    ck_assert_ptr_nonnull(gz);
    int n = gzread(gz, line, sizeof line - 1);
    gzclose(gz);
    ck_assert_int_gt(n, 0);
    line[n] = '\0';
    ck_assert_ptr_eq(strchr(line, '\n'), line + n - 1); /* one line */
    json_object *o = json_tokener_parse(line);
    ck_assert_ptr_nonnull(o);
    json_object *v;
    const char *want[][2] = {
        {"type", "compile"},     {"format", "judge-compile"},     {"player", "alice"},
        {"profile", "c"},        {"source", "submissions/alice"}, {"verdict", "COMPILE_ERROR"},
        {"messages", r.messages}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        ck_assert(json_object_object_get_ex(o, want[i][0], &v));
        ck_assert_str_eq(json_object_get_string(v), want[i][1]);
    }
    const char *nums[][2] = {{"version", "1"}, {"exit_code", "1"}, {"cpu_ns", "123"}, {"wall_ns", "456"}};
    for (size_t i = 0; i < sizeof nums / sizeof *nums; i++) {
        ck_assert(json_object_object_get_ex(o, nums[i][0], &v));
        ck_assert_str_eq(json_object_to_json_string(v), nums[i][1]);
    }
    ck_assert(json_object_object_get_ex(o, "judge_version", &v));
    json_object_put(o);
    rec.player = "../evil";
    ck_assert_int_eq(compile_record_write(tmpdir, &rec, &err), -1);
    ck_assert_str_eq(err.msg, "compile record: player name '../evil' cannot be a file name");
}
END_TEST

static Suite *language_profile_suite(void)
{
    Suite *s = suite_create("language_profile");
    TCase *tc = tcase_create("profiles");
    tcase_add_checked_fixture(tc, make_fixture, remove_fixture);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, shipped_c);
    tcase_add_test(tc, shipped_cpp_python_java);
    tcase_add_test(tc, minimal_profile_and_defaults);
    tcase_add_test(tc, unknown_and_missing_keys);
    tcase_add_test(tc, bad_values);
    tcase_add_test(tc, bad_variables);
    tcase_add_test(tc, not_yaml_or_empty);
    tcase_add_test(tc, truncation_and_mutation_fuzz);
    tcase_add_test(tc, lookup_by_name_and_path);
    tcase_add_test(tc, expand_words);
    tcase_add_test(tc, sources_in_name_order);
    tcase_add_test(tc, no_sources_and_entries);
    tcase_add_test(tc, run_spec_from_manifest);
    tcase_add_test(tc, seccomp_additions_are_registered);
    tcase_add_test(tc, record_one_gzip_json_line);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(language_profile_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
