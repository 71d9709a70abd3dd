# traincost - GNU Make build.  See README.md.
#   make            release binary at build/traincost
#   make test       unit suites + CLI golden cases, summary "N passed, N failed"
#   make san        the same under ASan + UBSan (build-san/)
#   make valgrind   the same under valgrind --leak-check=full (build-vg/)
#   make demo       run the main job on a bundled example
#   make bench      speed benchmarks
#   make install    PREFIX=/usr/local DESTDIR=

VERSION   := 0.1.0
PREFIX    ?= /usr/local
DESTDIR   ?=
BUILD     ?= build
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
CFLAGS_ALL = -std=c11 -D_POSIX_C_SOURCE=200809L -DTC_VERSION='"$(VERSION)"' \
	-DTC_DATADIR='"$(PREFIX)/share/traincost"' \
	$(WARN) $(WERROR) $(OPT) $(SANFLAGS) $(PKG_CFLAGS) $(CFLAGS) -MMD -MP
LDLIBS_ALL = $(PKG_LIBS) -lm $(LDLIBS)

LIB_SRC  := $(sort $(shell find src -name '*.c' ! -name main.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
TEST_SRC := $(sort $(wildcard tests/unit/test_*.c))
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
BENCH_SRC := $(sort $(wildcard bench/*.c))
BENCH_BIN := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)

.PHONY: all deps test san valgrind demo bench install uninstall clean fuzz
all: $(BUILD)/traincost

# Install missing Debian packages first (README: two commands, no other set-up).
deps:
	@scripts/install-deps

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -c $< -o $@

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

# The variants re-enter make with their own build folder.
test: deps
	@$(MAKE) --no-print-directory $(BUILD)/traincost $(TEST_BIN)
	@tests/run-all.sh $(BUILD) "$(RUNNER)"

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
	@for b in $(BENCH_BIN); do $$b || exit 1; done

install: $(BUILD)/traincost
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/traincost \
		$(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BUILD)/traincost $(DESTDIR)$(PREFIX)/bin/traincost
	cp -R models pricing $(DESTDIR)$(PREFIX)/share/traincost/
	install -m 644 docs/traincost.1 $(DESTDIR)$(PREFIX)/share/man/man1/traincost.1

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/traincost $(DESTDIR)$(PREFIX)/share/man/man1/traincost.1
	rm -rf $(DESTDIR)$(PREFIX)/share/traincost

clean:
	rm -rf build build-san build-vg build-fuzz

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
