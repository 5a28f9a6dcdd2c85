# judge: a sandboxed grading pipeline for bot-programming contests.
# `make` builds bin/judge; `make test` runs every test, then again under ASan+UBSan, then the fuzzers briefly.

PREFIX  ?= /usr/local
DESTDIR ?=
VARIANT ?= release
CC      ?= cc
CXX     ?= c++

PKGS      := libseccomp libcap yaml-0.1 zlib libdeflate json-c libwebsockets
DEB_PKGS  := build-essential pkg-config libseccomp-dev libcap-dev libyaml-dev zlib1g-dev libdeflate-dev clang libclang-rt-14-dev \
             libjson-c-dev check libxml2-utils bubblewrap valgrind python3 openjdk-17-jdk-headless \
             libwebsockets-dev python3-autobahn nodejs chromium strace

BUILD ?= build/$(VARIANT)
BIN   ?= $(if $(filter release,$(VARIANT)),bin,$(BUILD)/bin)

WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla
CFLAGS_release := -O2 -g
CFLAGS_asan    := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS_asan   := -fsanitize=address,undefined
CFLAGS   ?=
CFLAGS   += -std=c17 -D_GNU_SOURCE $(WARN) $(CFLAGS_$(VARIANT)) -I. $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# libwebsockets is compiled against but loaded by `judge serve` alone (judge/serve/serve_lws.h), by
# the SONAME of the library found here.
LINKED_PKGS := $(filter-out libwebsockets,$(PKGS))
LWS_SONAME  := $(shell objdump -p "$$($(CC) -print-file-name=libwebsockets.so)" 2>/dev/null | awk '$$1 == "SONAME" { print $$2 }')
CFLAGS   += $(if $(LWS_SONAME),-DLWS_SONAME='"$(LWS_SONAME)"')
LDLIBS   += $(shell pkg-config --libs $(LINKED_PKGS) 2>/dev/null) -ldl -lm
LDFLAGS  += $(LDFLAGS_$(VARIANT))
NPROC    := $(shell nproc 2>/dev/null || echo 2)
VERSION  := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
CFLAGS   += -DJUDGE_VERSION='"$(VERSION)"'

# Layers, each a folder and a static library, each used only by the ones above
# (ARCHITECTURE.md): engine (pure rules) and sandbox (the jail) at the bottom
# beside common (host-side helpers), replay (the format) on them, judge (its
# libraries: judge/*/ but cli) and ci on top, and the command line
# (judge/cli) over everything. viewer/ is the browser viewer: its C side
# (page.c) assembles pages for judge/cli and ci from the HTML, CSS and scripts
# that viewer/tools/embed.c compiles into the binary (no network, no tool
# beyond the C compiler). Every .c file in a layer folder is built into that
# layer's library (not those of its tools/ folder), and the sandbox's also
# holds the built-in seccomp profiles' BPF programs, which
# sandbox/tools/seccomp_gen.c makes at build time.
layer_objs    = $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard $(1)))
ENGINE_OBJS  := $(call layer_objs,engine/*.c)
SANDBOX_OBJS := $(call layer_objs,sandbox/*.c) $(BUILD)/obj/gen/seccomp_programs.o
COMMON_OBJS  := $(call layer_objs,common/*.c)
REPLAY_OBJS  := $(call layer_objs,replay/*.c)
JUDGE_OBJS   := $(call layer_objs,$(filter-out judge/cli/%,$(wildcard judge/*/*.c)))
CI_OBJS      := $(call layer_objs,ci/*.c)
CLI_OBJS     := $(call layer_objs,judge/cli/*.c)
VIEWER_JS    := viewer/core/replay.js viewer/core/timeline.js viewer/core/draw.js viewer/core/chart.js \
                viewer/core/panels.js viewer/core/player.js $(sort $(wildcard viewer/games/*.js)) viewer/main.js
VIEWER_OBJS  := $(BUILD)/obj/viewer/page.o $(BUILD)/obj/gen/viewer_assets.o
LIB_OBJS     := $(ENGINE_OBJS) $(SANDBOX_OBJS) $(COMMON_OBJS) $(REPLAY_OBJS) $(JUDGE_OBJS) $(CI_OBJS) \
                $(BUILD)/obj/viewer/page.o
# Link order: upper layers first.
LIBS_ENGINE  := $(BUILD)/libengine.a
LIBS_SANDBOX := $(BUILD)/libsandbox.a
LIBS_ALL     := $(BUILD)/libci.a $(BUILD)/libviewer.a $(BUILD)/libjudgecore.a $(BUILD)/libreplay.a \
                $(BUILD)/libcommon.a $(BUILD)/libsandbox.a $(BUILD)/libengine.a
LIBJUDGE     := $(LIBS_ALL)

# Unit tests are named for their layer: tests/unit/test_engine_*.c link only the
# engine, test_sandbox_*.c only the sandbox, anything else links every layer.
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

# Programs that run inside the jail: example bots and the hostile suite.
BOT_C_SRCS   := $(wildcard examples/bots/*/*.c)
BOT_CXX_SRCS := $(wildcard examples/bots/*/*.cpp)
BOT_BINS     := $(BOT_C_SRCS:examples/bots/%.c=build/bots/%) $(BOT_CXX_SRCS:examples/bots/%.cpp=build/bots/%)
HOSTILE_SRCS := $(wildcard tests/hostile/*.c)
HOSTILE_BINS := $(HOSTILE_SRCS:tests/hostile/%.c=build/hostile/%)
HELPER_SRCS  := $(wildcard tests/progs/*.c)
HELPER_BINS  := $(HELPER_SRCS:tests/progs/%.c=build/progs/%)
BENCH_SRCS   := $(wildcard tests/bench/bench_*.c)
BENCH_BINS   := $(BENCH_SRCS:tests/bench/%.c=$(BUILD)/bench/%)

.PHONY: FORCE all deps test test-unit test-e2e test-browser test-asan test-asan-build test-asan-unit test-asan-e2e bench demo install uninstall man clean programs format tidy check-deps valgrind

all: check-deps $(BIN)/judge programs

check-deps:
	@pkg-config --exists $(PKGS) check || { \
	  echo "missing build dependencies: run 'make deps' (Debian: $(DEB_PKGS))" >&2; exit 1; }

deps:
	@missing=""; for p in $(DEB_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	else echo "all build dependencies present"; fi
	@# npm: Debian's package, unless the nodejs installed already brings its own (NodeSource's does).
	@command -v npm >/dev/null || { SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq npm >/dev/null; }
	@cd tests/browser && { [ -d node_modules/playwright-core ] && [ -d node_modules/autobahn-browser ] || npm ci --no-audit --no-fund --loglevel=error; }

programs: $(BOT_BINS) $(HOSTILE_BINS) $(HELPER_BINS)

$(BIN)/judge: $(CLI_OBJS) $(LIBJUDGE)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJS) $(LIBJUDGE) $(LDLIBS)

$(BUILD)/libengine.a: $(ENGINE_OBJS)
$(BUILD)/libsandbox.a: $(SANDBOX_OBJS)
$(BUILD)/libcommon.a: $(COMMON_OBJS)
$(BUILD)/libreplay.a: $(REPLAY_OBJS)
$(BUILD)/libjudgecore.a: $(JUDGE_OBJS)
$(BUILD)/libci.a: $(CI_OBJS)
$(BUILD)/libviewer.a: $(VIEWER_OBJS)
$(BUILD)/lib%.a:
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/tools/embed: viewer/tools/embed.c
	@mkdir -p $(dir $@)
	$(CC) -std=c17 -O2 -Wall -Wextra -Werror -o $@ $<
$(BUILD)/gen/viewer_assets.c: $(BUILD)/tools/embed viewer/page.html viewer/viewer.css $(VIEWER_JS) viewer/report.js
	@mkdir -p $(dir $@)
	$(BUILD)/tools/embed $@ -n viewer_page_html viewer/page.html -n viewer_css viewer/viewer.css -n viewer_js $(VIEWER_JS) \
	  -n viewer_report_js viewer/report.js
$(BUILD)/obj/gen/viewer_assets.o: $(BUILD)/gen/viewer_assets.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

# The generator is linked from the sandbox's own objects, so the programs are those the
# judge would compile at run time; linked with CFLAGS, which hold the variant's sanitizers
# (LDFLAGS of the fuzz variant would bring libFuzzer's main).
SECCOMP_GEN_OBJS := $(BUILD)/obj/sandbox/tools/seccomp_gen.o $(BUILD)/obj/sandbox/seccomp_build.o \
                    $(BUILD)/obj/sandbox/seccomp_profiles.o
$(BUILD)/tools/seccomp_gen: $(SECCOMP_GEN_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $(SECCOMP_GEN_OBJS) $(shell pkg-config --libs libseccomp 2>/dev/null)
# The programs are libseccomp's output: made again when the library installed changes
# (an upgrade keeps the package's old file times, so the stamp compares the version).
LIBSECCOMP_ID := $(shell pkg-config --modversion libseccomp 2>/dev/null) \
                 $(realpath $(shell pkg-config --variable=libdir libseccomp 2>/dev/null)/libseccomp.so.2)
$(BUILD)/gen/libseccomp.id: FORCE
	@mkdir -p $(dir $@)
	@[ "$$(cat $@ 2>/dev/null)" = "$(strip $(LIBSECCOMP_ID))" ] || echo "$(strip $(LIBSECCOMP_ID))" > $@
$(BUILD)/gen/seccomp_programs.c: $(BUILD)/tools/seccomp_gen $(BUILD)/gen/libseccomp.id
	@mkdir -p $(dir $@)
	$(BUILD)/tools/seccomp_gen $@
FORCE:
$(BUILD)/obj/gen/seccomp_programs.o: $(BUILD)/gen/seccomp_programs.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

CHECK_FLAGS = $(shell pkg-config --cflags --libs check)
$(BUILD)/tests/test_engine_%: tests/unit/test_engine_%.c $(LIBS_ENGINE)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP $(LDFLAGS) -o $@ $< $(LIBS_ENGINE) $(LDLIBS) $(CHECK_FLAGS)
$(BUILD)/tests/test_sandbox_%: tests/unit/test_sandbox_%.c $(LIBS_SANDBOX)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP $(LDFLAGS) -o $@ $< $(LIBS_SANDBOX) $(LDLIBS) $(CHECK_FLAGS)
$(BUILD)/tests/%: tests/unit/%.c $(LIBS_ALL)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP $(LDFLAGS) -o $@ $< $(LIBS_ALL) $(LDLIBS) $(CHECK_FLAGS)

$(BUILD)/bench/%: tests/bench/%.c $(LIBJUDGE)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBJUDGE) $(LDLIBS)

# Jailed programs are built plainly (no sanitizers: the jail's seccomp policy is theirs to live with).
JAILED_CFLAGS := -std=c17 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror
build/bots/%: examples/bots/%.c
	@mkdir -p $(dir $@)
	$(CC) $(JAILED_CFLAGS) -o $@ $<
build/bots/%: examples/bots/%.cpp
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -O2 -o $@ $<
build/hostile/%: tests/hostile/%.c tests/hostile/hostile.h
	@mkdir -p $(dir $@)
	$(CC) $(JAILED_CFLAGS) -Wno-unused-result -o $@ $< -lpthread
build/progs/gen_%: tests/progs/gen_%.c tests/progs/gen_bot.h
	@mkdir -p $(dir $@)
	$(CC) $(JAILED_CFLAGS) -o $@ $< -lpthread -lm
build/progs/war_%: tests/progs/war_%.c tests/progs/war_bot.h
	@mkdir -p $(dir $@)
	$(CC) $(JAILED_CFLAGS) -o $@ $<
build/progs/%: tests/progs/%.c
	@mkdir -p $(dir $@)
	$(CC) $(JAILED_CFLAGS) -o $@ $< -lpthread -lm
build/progs/no_ns_wrapper: tests/progs/no_ns_wrapper.c
	@mkdir -p $(dir $@)
	$(CC) $(JAILED_CFLAGS) -o $@ $< -lseccomp
build/progs/static_true: tests/progs/static_true.c
	@mkdir -p $(dir $@)
	$(CC) $(JAILED_CFLAGS) -static -o $@ $<

# ---- tests ---------------------------------------------------------------
# Every stage runs to its end even when one before it failed; one summary line at the end.
test: deps
	$(MAKE) -j$(NPROC) all $(UNIT_BINS)
	@MAKE="$(MAKE)" tests/run_stages.sh test-unit test-e2e test-browser test-vm test-asan-unit test-asan-e2e fuzz-regress fuzz-short valgrind

test-unit: $(UNIT_BINS)
	@tests/run_unit.sh $(UNIT_BINS)

test-e2e: $(BIN)/judge programs
	@JUDGE=$(abspath $(BIN)/judge) tests/run_e2e.sh

# The replay viewer in headless chromium (tests/browser/, playwright-core from its package-lock).
test-browser: $(BIN)/judge programs
	@cd tests/browser && JUDGE=$(abspath $(BIN)/judge) node --test

# The viewer screenshots of README.md, made by the browser tests.
viewer-screenshots: $(BIN)/judge programs
	@cd tests/browser && JUDGE=$(abspath $(BIN)/judge) VIEWER_SCREENSHOTS=$(abspath docs/img) node --test

test-asan: test-asan-unit test-asan-e2e
test-asan-build:
	$(MAKE) -j$(NPROC) VARIANT=asan programs $(BUILD:release=asan)/bin/judge $(UNIT_SRCS:tests/unit/%.c=build/asan/tests/%)
test-asan-unit: test-asan-build
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  tests/run_unit.sh $(UNIT_SRCS:tests/unit/%.c=build/asan/tests/%)
test-asan-e2e: test-asan-build
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  JUDGE=$(abspath build/asan/bin/judge) JUDGE_SANITIZED=1 tests/run_e2e.sh

# Memcheck over the unit tests that run no jail (valgrind implements neither
# seccomp nor the jail's RLIMIT_NOFILE, so jailed code is covered by ASan instead).
VALGRIND_TESTS := $(filter $(BUILD)/tests/test_engine_% $(BUILD)/tests/test_judge_replay \
                    $(BUILD)/tests/test_judge_bot_channel $(BUILD)/tests/test_judge_match_config \
                    $(BUILD)/tests/test_judge_run_report $(BUILD)/tests/test_viewer_page \
                    $(BUILD)/tests/test_judge_serve_game,$(UNIT_BINS))
valgrind: $(VALGRIND_TESTS)
	@failed=0; for t in $(VALGRIND_TESTS); do \
	  if CK_FORK=no valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite $$t >/dev/null; \
	  then echo "ok valgrind/$${t##*/}"; else echo "FAIL valgrind/$${t##*/}: memcheck errors (above)"; failed=1; fi; \
	done; exit $$failed

bench: deps
	$(MAKE) -j$(NPROC) all $(BENCH_BINS)
	@JUDGE=$(abspath $(BIN)/judge) tests/bench/run.sh $(BENCH_BINS)

demo: deps
	$(MAKE) -j$(NPROC) all
	@tests/demo.sh $(abspath $(BIN)/judge)

# judge(1) is written by the binary from its commands' --help texts: one source for both.
$(BUILD)/judge.1: $(BIN)/judge
	$(BIN)/judge help --man >$@.tmp && mv $@.tmp $@
man: $(BUILD)/judge.1

# install: the binary, the language profiles, judge(1), the docs and the examples. The
# directories it makes (and no directory that was there before: /usr/local/bin stays) are
# listed in share/judge/installed-dirs, which uninstall reads to remove each again, deepest
# first, when it is empty.
DOC_DIR := $(DESTDIR)$(PREFIX)/share/doc/judge
MAN_DIR := $(DESTDIR)$(PREFIX)/share/man/man1
INSTALL_DIRS  := $(PREFIX)/bin $(PREFIX)/share/judge/containers $(PREFIX)/share/man/man1 $(PREFIX)/share/doc/judge
INSTALLED_LOG := $(DESTDIR)$(PREFIX)/share/judge/installed-dirs
install: $(BIN)/judge $(BUILD)/judge.1
	@made=""; for d in $(INSTALL_DIRS); do \
	  while [ -n "$$d" ] && [ ! -e "$(DESTDIR)$$d" ]; do made="$$made $$d"; d=$${d%/*}; done; done; \
	install -d $(addprefix $(DESTDIR),$(INSTALL_DIRS)) && \
	{ cat "$(INSTALLED_LOG)" 2>/dev/null; printf '%s\n' $$made; } | awk 'NF && !seen[$$0]++' >"$(INSTALLED_LOG).new" && \
	mv "$(INSTALLED_LOG).new" "$(INSTALLED_LOG)"
	install -m 0755 $(BIN)/judge $(DESTDIR)$(PREFIX)/bin/judge
	cp -r containers/. $(DESTDIR)$(PREFIX)/share/judge/containers/
	install -m 0644 $(BUILD)/judge.1 $(MAN_DIR)/judge.1
	install -m 0644 README.md ARCHITECTURE.md $(DOC_DIR)/
	cp -r docs examples $(DOC_DIR)/

uninstall:
	@made=$$(cat "$(INSTALLED_LOG)" 2>/dev/null); \
	rm -f $(DESTDIR)$(PREFIX)/bin/judge $(MAN_DIR)/judge.1 && \
	rm -rf $(DESTDIR)$(PREFIX)/share/judge $(DOC_DIR) && \
	for d in $$(printf '%s\n' $$made | awk 'NF { print length($$0), $$0 }' | sort -rn | cut -d' ' -f2-); do \
	  if [ -d "$(DESTDIR)$$d" ]; then rmdir --ignore-fail-on-non-empty "$(DESTDIR)$$d" || exit 1; fi; done

format:
	clang-format -i $$(git ls-files '*.c' '*.h' '*.cpp')

tidy:
	clang-tidy $$(git ls-files 'engine/*.c' 'sandbox/*.c' 'common/*.c' 'replay/*.c' 'judge/*.c' 'ci/*.c') -- $(CFLAGS)

clean:
	rm -rf build bin

# The human page of `judge serve` is embedded with .incbin, which -MMD does not see.
$(BUILD)/obj/judge/serve/serve_page.o: judge/serve/serve_page.html

-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(UNIT_BINS:=.d) $(BUILD)/obj/sandbox/tools/seccomp_gen.d

# ---- Docker (docs/docker.md) ----------------------------------------------
# docker-image: the runtime image with your own engine (DOCKER_BASE names a
# local base image where no registry is reachable). test-docker: a private
# engine builds the image from a debootstrap'ed base and runs the judge in it.
DOCKER       ?= docker
DOCKER_BASE  ?= debian:bookworm
DOCKER_IMAGE ?= judge:latest
.PHONY: docker-image test-docker
docker-image:
	$(DOCKER) build --build-arg BASE=$(DOCKER_BASE) --build-arg JUDGE_VERSION=$(VERSION) -t $(DOCKER_IMAGE) .

test-docker: $(BIN)/judge
	@JUDGE=$(abspath $(BIN)/judge) tests/docker/run.sh

# ---- grading a class (docs/class.md) ---------------------------------------
# demo-class: the class pipeline of ci/examples/*-grading.yml on examples/class,
# into build/demo-class (made afresh), and where its report is.
.PHONY: demo-class viewer-screenshots
demo-class: deps
	$(MAKE) -j$(NPROC) all
	@rm -rf build/demo-class
	@JUDGE=$(abspath $(BIN)/judge) sh examples/class/pipeline.sh build/demo-class

# ---- cgroup v2 and the ordinary user, in a VM (tests/vm/run.sh) -------------
# deps-vm: QEMU, the stock Debian kernel and a static busybox (if they cannot
# be installed, test-vm is a named skip). test-vm: boot that kernel under
# QEMU with the host's / read-only and cgroup2 alone; the judge's v2 checks
# run inside, as root and as a user with a delegated subtree.
VM_DEB_PKGS := qemu-system-x86 linux-image-amd64 busybox-static cpio kmod
.PHONY: deps-vm test-vm test-vm-suite
deps-vm:
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(VM_DEB_PKGS)" || echo "deps-vm: could not install $(VM_DEB_PKGS)"

test-vm: deps-vm
	$(MAKE) -j$(NPROC) all $(filter $(BUILD)/tests/test_sandbox_%,$(UNIT_BINS))
	@JUDGE=$(abspath $(BIN)/judge) tests/vm/run.sh
# test-vm-suite: the whole unit and e2e suites on that kernel (not in make test:
# tens of minutes under TCG).
test-vm-suite: deps-vm
	$(MAKE) -j$(NPROC) all programs $(UNIT_BINS)
	@VM_GUEST=suite JUDGE=$(abspath $(BIN)/judge) tests/vm/run.sh
# ---- fuzzing (tests/fuzz/README.md) ----------------------------------------
# fuzz: each libFuzzer target (clang, ASan+UBSan) for FUZZ_SECONDS, from its
# seeds (tests/fuzz/corpus/NAME) and kept crashes (tests/fuzz/regressions/NAME),
# which is where a new crashing input is written. fuzz-regress (in make test):
# the same targets over those inputs once, built by GCC under ASan+UBSan; make
# test also fuzzes each target for 5 s (FUZZ_SEED fixed: the same inputs each run).
FUZZ_SRCS     := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_NAMES    := $(FUZZ_SRCS:tests/fuzz/fuzz_%.c=%)
FUZZ_SECONDS  ?= 60
FUZZ_SEED     ?= 1
CFLAGS_fuzz   := -O1 -g -fsanitize=address,undefined,fuzzer-no-link -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS_fuzz  := -fsanitize=address,undefined,fuzzer
# fuzz_wamp stands in for the WebSocket transport and the clock (tests/fuzz/fuzz_wamp.c)
FUZZ_LDFLAGS_wamp := -Wl,--wrap=ws_send -Wl,--wrap=ws_close_after_send -Wl,--wrap=serve_now_ms
.PHONY: fuzz fuzz-build fuzz-regress fuzz-short
# make test's pass: every target for 5 s from a fixed seed.
fuzz-short:
	$(MAKE) fuzz FUZZ_SECONDS=5
build/fuzz/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_input.h $(LIBS_ALL)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP $(LDFLAGS) $(FUZZ_LDFLAGS_$*) -o $@ $< $(LIBS_ALL) $(LDLIBS)
build/asan/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_input.h tests/fuzz/replay_main.c $(LIBS_ALL)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) $(FUZZ_LDFLAGS_$*) -o $@ $< tests/fuzz/replay_main.c $(LIBS_ALL) $(LDLIBS)

fuzz-build:
	$(MAKE) -j$(NPROC) VARIANT=fuzz CC=clang $(FUZZ_NAMES:%=build/fuzz/fuzz/fuzz_%)

fuzz: deps fuzz-build
	@for n in $(FUZZ_NAMES); do mkdir -p build/fuzz/corpus/$$n tests/fuzz/regressions/$$n; \
	  echo "== fuzz $$n ($(FUZZ_SECONDS) s)"; \
	  build/fuzz/fuzz/fuzz_$$n -max_total_time=$(FUZZ_SECONDS) -seed=$(FUZZ_SEED) -timeout=10 -rss_limit_mb=2048 \
	    -print_final_stats=0 -artifact_prefix=tests/fuzz/regressions/$$n/ \
	    build/fuzz/corpus/$$n tests/fuzz/corpus/$$n tests/fuzz/regressions/$$n 2>build/fuzz/$$n.log \
	  || { tail -40 build/fuzz/$$n.log; echo "fuzz $$n: a crashing input is kept in tests/fuzz/regressions/$$n/"; exit 1; }; \
	  grep -E '^#[0-9]+[[:space:]]+DONE' build/fuzz/$$n.log || true; done

fuzz-regress:
	$(MAKE) -j$(NPROC) VARIANT=asan $(FUZZ_NAMES:%=build/asan/fuzz/fuzz_%)
	@for n in $(FUZZ_NAMES); do mkdir -p tests/fuzz/regressions/$$n; \
	  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  build/asan/fuzz/fuzz_$$n tests/fuzz/corpus/$$n tests/fuzz/regressions/$$n || exit 1; done
