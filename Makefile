# traincost - GNU Make build.  See README.md.
#   make            release binary at build/traincost
#   make test       unit suites + CLI golden cases, summary "N passed, N skipped, N failed"
#                   (make test TC_CASES=GLOB: only those CLI cases; TC_CASES in
#                   the environment is ignored, so it never narrows a run unseen;
#                   make test JOBS=N: N suites at a time, the same checks)
#   make san        the same under ASan + UBSan (build-san/)
#   make valgrind   the same under valgrind --leak-check=full (build-vg/)
#   make demo       run the main job on a bundled example
#   make bench      speed benchmarks
#   make install    PREFIX=/usr/local DESTDIR=

VERSION   := 0.1.0
PREFIX    ?= /usr/local
DESTDIR   ?=
BUILD     ?= build
# Outputs go to a folder of their own: among the sources, the binary, the
# library and prefix.txt would sit where git can take them in.
ifeq ($(abspath $(BUILD)),$(CURDIR))
$(error BUILD=$(BUILD) is the source folder (expected a folder of its own, such as build))
endif
CC        ?= cc
PKGS      := yaml-0.1 gsl cmocka

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wpointer-arith -Wcast-qual -Wwrite-strings -Wformat=2 -Wvla \
	-Wundef -Wold-style-definition -Wdouble-promotion -Wno-unused-parameter
OPT       ?= -O2 -g
SANFLAGS  ?=
WERROR    ?=
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs yaml-0.1 gsl 2>/dev/null)
CMOCKA_LIBS = $(shell pkg-config --libs cmocka 2>/dev/null)
CFLAGS_ALL = -std=c11 -pthread -D_POSIX_C_SOURCE=200809L -DTC_VERSION='"$(VERSION)"' \
	-DTC_DATADIR='"$(PREFIX)/share/traincost"' \
	$(WARN) $(WERROR) $(OPT) $(SANFLAGS) $(PKG_CFLAGS) $(CFLAGS) -MMD -MP
LDLIBS_ALL = $(PKG_LIBS) -lm -pthread $(LDLIBS)

LIB_SRC  := $(sort $(shell find src -name '*.c' ! -name main.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
TEST_SRC := $(sort $(wildcard tests/unit/test_*.c))
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
BENCH_SRC := $(sort $(wildcard bench/*.c))
BENCH_BIN := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)

.PHONY: all deps test san valgrind demo bench defaults install uninstall clean fuzz
all: $(BUILD)/traincost

# Install missing Debian packages first (README: two commands, no other set-up).
deps:
	@scripts/install-deps

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -c $< -o $@

# The installed data folder is compiled in: rebuild what uses it when PREFIX
# changes (make; make install PREFIX=/usr).
$(BUILD)/prefix.txt: FORCE
	@mkdir -p $(BUILD)
	@echo '$(PREFIX)' | cmp -s - $@ || echo '$(PREFIX)' > $@
$(BUILD)/src/io/datapath.o: $(BUILD)/prefix.txt
.PHONY: FORCE

$(BUILD)/libtraincost.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/traincost: $(BUILD)/src/main.o $(BUILD)/libtraincost.a
	$(CC) $(SANFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS_ALL)

$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(BUILD)/libtraincost.a
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS_ALL) $(CMOCKA_LIBS)

$(BUILD)/bench/%: $(BUILD)/bench/%.o $(BUILD)/libtraincost.a
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS_ALL)

# Suites run at a time by tests/run-all.sh, and fuzzers by make fuzz.
JOBS ?= 1
export JOBS

# CLI cases to narrow to: only when given on make's command line.
TEST_CASES = $(if $(filter command line,$(origin TC_CASES)),'$(TC_CASES)')

# The variants re-enter make with their own build folder.
# The benchmarks are built and the fuzz harnesses compiled (they need
# clang's libFuzzer to link, `make fuzz`), so a change of the library's
# interface that leaves them behind fails here, not in a later stage.
test: deps
	@$(MAKE) --no-print-directory $(BUILD)/traincost $(TEST_BIN) $(BENCH_BIN)
	@for f in fuzz/fuzz_*.c; do \
		$(CC) -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(WERROR) $(PKG_CFLAGS) \
			-fsyntax-only $$f || exit 1; done
	@tests/run-all.sh $(BUILD) "$(RUNNER)" $(TEST_CASES)

san: deps
	@$(MAKE) --no-print-directory test BUILD=build-san OPT='-O1 -g -fno-omit-frame-pointer' \
		SANFLAGS='-fsanitize=address,undefined,float-divide-by-zero -fno-sanitize-recover=all'

valgrind:
	@TC_WANT_VALGRIND=1 scripts/install-deps
	@$(MAKE) --no-print-directory test BUILD=build-vg OPT='-O0 -g' \
		RUNNER='valgrind -q --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect --error-exitcode=99'

demo: deps
	@$(MAKE) --no-print-directory $(BUILD)/traincost
	$(BUILD)/traincost estimate examples/llama2-7b-a100.yaml

bench: deps
	@$(MAKE) --no-print-directory $(BENCH_BIN) $(BUILD)/traincost OPT='-O2 -g -DNDEBUG'
	@rm -f $(BUILD)/bench/summary.txt
	@for b in $(BENCH_BIN); do $$b $(BUILD)/bench/summary.txt || exit 1; done
	@printf 'bench summary, %s cores: %s\n' "$$(getconf _NPROCESSORS_ONLN)" \
		"$$(sed ':a;N;$$!ba;s/\n/; /g' $(BUILD)/bench/summary.txt)"

# Refit the efficiency defaults from the measurements kept in the repository
# (docs/calibration.md); compare the output with roof_eff_default().
defaults: deps
	@$(MAKE) --no-print-directory $(BUILD)/traincost
	$(BUILD)/traincost calibrate tests/unit/data/meas/defaults-a100.yaml -o $(BUILD)/defaults-a100.yaml
	@echo "compare $(BUILD)/defaults-a100.yaml with roof_eff_default() in src/model/core/roofline.c"

# Man pages: one per command, written from the command's own help, and
# traincost-workload(5) from docs/workload-format.md (scripts/man-command,
# scripts/md2man), so the manual cannot drift from either.
.PHONY: man
man: $(BUILD)/traincost
	@mkdir -p $(BUILD)/man
	@for c in $$($(BUILD)/traincost --help | awk '/^Commands:/ { on = 1; next } \
		on && /^$$/ { exit } on && $$1 != "help" { print $$1 }'); do \
		scripts/man-command $(BUILD)/traincost $$c $(VERSION) \
			>$(BUILD)/man/traincost-$$c.1.tmp && \
		mv $(BUILD)/man/traincost-$$c.1.tmp $(BUILD)/man/traincost-$$c.1 || exit 1; \
	done
	@scripts/md2man traincost-workload 5 $(VERSION) \
		"workload files of traincost: models, training settings, plans" \
		<docs/workload-format.md >$(BUILD)/man/traincost-workload.5

# Idempotent: a second install overwrites the first, never nests folders.
DOCDIR  = $(DESTDIR)$(PREFIX)/share/doc/traincost
SHAREDIR = $(DESTDIR)$(PREFIX)/share/traincost
install: $(BUILD)/traincost man
	install -d $(DESTDIR)$(PREFIX)/bin $(SHAREDIR)/validation \
		$(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man5 $(DOCDIR) \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 755 $(BUILD)/traincost $(DESTDIR)$(PREFIX)/bin/traincost
	cp -R models pricing $(SHAREDIR)/
	cp -R tests/validation/. $(SHAREDIR)/validation/
	install -m 644 docs/traincost.1 $(BUILD)/man/traincost-*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 $(BUILD)/man/traincost-workload.5 $(DESTDIR)$(PREFIX)/share/man/man5/
	install -m 644 README.md LICENSE docs/*.md $(DOCDIR)/
	install -d $(DOCDIR)/schema
	install -m 644 docs/schema/*.schema.json $(DOCDIR)/schema/
	$(BUILD)/traincost completion bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/traincost
	$(BUILD)/traincost completion zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_traincost
	$(BUILD)/traincost completion fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/traincost.fish

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/traincost $(DESTDIR)$(PREFIX)/share/man/man1/traincost.1 \
		$(DESTDIR)$(PREFIX)/share/man/man1/traincost-*.1 \
		$(DESTDIR)$(PREFIX)/share/man/man5/traincost-workload.5
	rm -f $(DESTDIR)$(PREFIX)/share/bash-completion/completions/traincost \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_traincost \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/traincost.fish
	rm -rf $(SHAREDIR) $(DOCDIR)

clean:
	rm -rf build build-san build-vg build-fuzz

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# Fuzzing (docs/robustness.md): libFuzzer harnesses fuzz/fuzz_*.c built with
# clang into build-fuzz/; `make fuzz FUZZ_SECONDS=60` runs each for that long
# from the repository root.  Each starts from its checked-in corpus
# fuzz/corpus/NAME (what earlier runs learned) and the files the harness
# reads; new inputs go to build-fuzz/corpus/NAME, crashes to build-fuzz/.
# `make fuzz-merge` adds to fuzz/corpus/NAME only the new inputs that reach
# new code (libFuzzer -merge=1), so the checked-in corpora stay small;
# `make fuzz-long` is an hour per harness, then the merge.  The clang build
# is also where the unit suites and benchmarks, which `make test` compiles
# with cc, pass clang's warnings (its -Wdouble-promotion flags the float
# NAN that gcc's lets through).
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_LONG_SECONDS ?= 3600
FUZZ_SAN     := -fsanitize=address,undefined,float-divide-by-zero -fno-sanitize-recover=all
FUZZ_NAMES   := $(sort $(patsubst fuzz/fuzz_%.c,%,$(wildcard fuzz/fuzz_*.c)))
FUZZ_SEEDS_yaml     := examples tests/bad models/gpu pricing
FUZZ_SEEDS_workload := examples tests/bad tests/unit/data/wl
FUZZ_SEEDS_estimate := examples tests/bad tests/unit/data/wl
FUZZ_SEEDS_gpu      := models/gpu tests/unit/data/gpu tests/bad
FUZZ_SEEDS_price    := pricing tests/unit/data/pricing tests/bad
FUZZ_SEEDS_valcsv   := tests/validation tests/unit/data/pricing tests/bad
FUZZ_SEEDS_escape   := tests/cli/data
FUZZ_SEEDS_sweep    := tests/cli/data

.PHONY: fuzz-build fuzz-long fuzz-merge
fuzz:
	@TC_WANT_FUZZ=1 scripts/install-deps
	@$(MAKE) --no-print-directory fuzz-build BUILD=build-fuzz CC=$(FUZZ_CC) \
		OPT='-O1 -g -fno-omit-frame-pointer' \
		SANFLAGS='-fsanitize=fuzzer-no-link $(FUZZ_SAN)'
	@for f in $(TEST_SRC) $(BENCH_SRC); do \
		$(FUZZ_CC) -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(WERROR) $(PKG_CFLAGS) \
			-fsyntax-only $$f || exit 1; done
	@$(MAKE) --no-print-directory -j$(JOBS) --output-sync=target $(FUZZ_NAMES:%=fuzz-run-%)

# One harness for FUZZ_SECONDS (JOBS of them at a time, each on its own core).
fuzz-run-%:
	@mkdir -p build-fuzz/corpus/$* fuzz/corpus/$*
	@echo "fuzz_$*: $(FUZZ_SECONDS) s"
	@build-fuzz/fuzz_$* -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
		-max_len=65536 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix=build-fuzz/$*- build-fuzz/corpus/$* fuzz/corpus/$* \
		$(FUZZ_SEEDS_$*) </dev/null \
		2>build-fuzz/$*.log || { tail -n 40 build-fuzz/$*.log; exit 1; }
	@grep -E '^stat::number_of_executed_units|^Done' build-fuzz/$*.log

fuzz-merge:
	@for h in $(FUZZ_NAMES); do \
		mkdir -p fuzz/corpus/$$h build-fuzz/corpus/$$h || exit 1; \
		build-fuzz/fuzz_$$h -merge=1 -max_len=4096 fuzz/corpus/$$h \
			build-fuzz/corpus/$$h </dev/null 2>build-fuzz/$$h-merge.log || \
			{ tail -n 20 build-fuzz/$$h-merge.log; exit 1; }; \
		echo "fuzz/corpus/$$h: $$(ls fuzz/corpus/$$h | wc -l) inputs"; \
	done

fuzz-long:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(FUZZ_LONG_SECONDS)
	@$(MAKE) --no-print-directory fuzz-merge

fuzz-build: $(patsubst %,build-fuzz/fuzz_%,$(FUZZ_NAMES))

build-fuzz/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz.h build-fuzz/libtraincost.a
	$(CC) $(CFLAGS_ALL) -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $< \
		build-fuzz/libtraincost.a $(LDLIBS_ALL)

# The allocation-failure test wraps the allocator (tests/unit/test_alloc_fail.c).
ALLOC_WRAP := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=free
$(BUILD)/tests/test_alloc_fail: $(BUILD)/tests/unit/test_alloc_fail.o $(BUILD)/libtraincost.a
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) $(LDFLAGS) $(ALLOC_WRAP) -o $@ $^ $(LDLIBS_ALL) $(CMOCKA_LIBS)

# The YAML test bounds the work of hostile inputs by counting calls
# (tests/unit/test_yaml.c), never by timing them.
YAML_WRAP := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=read,--wrap=qsort,--wrap=memcmp
$(BUILD)/tests/test_yaml: $(BUILD)/tests/unit/test_yaml.o $(BUILD)/libtraincost.a
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) $(LDFLAGS) $(YAML_WRAP) -o $@ $^ $(LDLIBS_ALL) $(CMOCKA_LIBS)

# The suite at other dates (tests/faketime/faketime.c moves the wall clock):
# a day before the newest price date, the day the tests take as today, half
# a year and four years on.  CI runs a past and a future one.
TEST_DATES ?= 2026-11-28 2026-12-01 2027-06-01 2031-01-01
$(BUILD)/faketime.so: tests/faketime/faketime.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -shared -fPIC $(WARN) $(WERROR) -O2 -o $@ $< -ldl

.PHONY: test-dates
test-dates: deps
	@$(MAKE) --no-print-directory $(BUILD)/traincost $(TEST_BIN) $(BUILD)/faketime.so
	@for d in $(TEST_DATES); do \
		shown=$$(env -u TRAINCOST_TODAY -u SOURCE_DATE_EPOCH TC_FAKE_DATE=$$d \
			LD_PRELOAD=$(abspath $(BUILD))/faketime.so \
			$(BUILD)/traincost prices --format json --data tests/data 2>/dev/null | \
			sed -n 's/.*"today": *"\([0-9-]*\)".*/\1/p'); \
		[ "$$shown" = "$$d" ] || { echo "test-dates: the clock shows '$$shown', not $$d"; exit 1; }; \
		TC_FAKE_DATE=$$d LD_PRELOAD=$(abspath $(BUILD))/faketime.so \
			tests/run-all.sh $(BUILD) "$(RUNNER)" >$(BUILD)/test-dates.log 2>&1; \
		rc=$$?; \
		echo "clock at $$d: $$(tail -n 1 $(BUILD)/test-dates.log)"; \
		[ $$rc -eq 0 ] || { grep -v '^ok' $(BUILD)/test-dates.log; exit 1; }; \
	done
