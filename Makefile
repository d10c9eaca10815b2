# srt-tui — build, test, run, install.
#
#   make            build build/srt-tui
#   make run        build and open the wizard on the default template
#   make check      build, then run every test (also under ASan + UBSan)
#   make bench      print performance figures
#   make fuzz       run the fuzz harnesses (FUZZ_SECONDS each, default 180)
#   make install    PREFIX=/usr/local DESTDIR=
#
# Sources are found by wildcard.  lib/ (printers, quoting, buffers), model/ and
# render/ form the library (no curses); tui/ the screens and cli/ the commands
# and main() make the binary; tests/unit/test_*.c are one cmocka binary each.

VERSION     := 0.1.0
PREFIX      ?= /usr/local
BINDIR      ?= $(PREFIX)/bin
MANDIR      ?= $(PREFIX)/share/man
DATADIR     ?= $(PREFIX)/share/srt-tui
COMPDIR     ?= $(PREFIX)/share/bash-completion/completions
DESTDIR     ?=
CC          ?= cc
PKG_CONFIG  ?= pkg-config
B           := build

# Evaluated lazily, after mk/deps.sh has had a chance to install the packages.
PKGS         = yaml-0.1 jansson
DEP_CFLAGS   = $(shell $(PKG_CONFIG) --cflags $(PKGS) ncursesw)
DEP_LIBS     = $(shell $(PKG_CONFIG) --libs $(PKGS))
CURSES_LIBS  = $(shell $(PKG_CONFIG) --libs ncursesw)
CMOCKA_LIBS  = $(shell $(PKG_CONFIG) --libs cmocka)
# The installed binary takes libyaml, jansson and ncurses from their archives
# when the -dev packages ship them (Debian's do): then the dynamic loader maps
# and relocates libc alone, and starting srt-tui, a fifth of what `validate
# FILE` costs, gets that much cheaper.  Tests and benches link them shared;
# STATIC_DEPS=0 does so here too.
STATIC_DEPS ?= 1
SHARED_LIBS  = $(DEP_LIBS) $(CURSES_LIBS)
# -print-file-name answers with a bare name for an archive it cannot find
DEP_ARCHIVES = $(foreach l,yaml jansson ncursesw tinfo,$(shell $(CC) -print-file-name=lib$(l).a))
REL_LIBS     = $(if $(filter 1,$(STATIC_DEPS)),$(if $(filter-out /%,$(DEP_ARCHIVES)),$(SHARED_LIBS),$(DEP_ARCHIVES)),$(SHARED_LIBS))

WARN        := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
               -Wno-unused-parameter
BASE_CFLAGS  = -std=c11 -D_GNU_SOURCE -DSRT_TUI_VERSION='"$(VERSION)"' \
               -DSRT_TUI_DATADIR='"$(DATADIR)"' -I. $(WARN) $(DEP_CFLAGS)
CFLAGS      ?= -O2 -g
SAN_FLAGS   := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
               -fno-sanitize-recover=undefined

LIB_SRC     := $(wildcard lib/*.c model/*.c render/*.c)
TUI_SRC     := $(wildcard tui/*.c)
CLI_SRC     := $(wildcard cli/*.c)
TEST_SRC    := $(wildcard tests/unit/test_*.c)
BENCH_SRC   := $(wildcard bench/*.c)

EXAMPLES    := $(sort $(wildcard examples/*.yaml))
GEN_SRC     := $(B)/gen/templates.c
IMAGES_SRC  := $(B)/gen/images.c

REL_LIB_OBJ := $(LIB_SRC:%.c=$(B)/rel/%.o)
SAN_LIB_OBJ := $(LIB_SRC:%.c=$(B)/san/%.o)
REL_TUI_OBJ := $(TUI_SRC:%.c=$(B)/rel/%.o) $(B)/rel/gen/templates.o $(B)/rel/gen/images.o
SAN_TUI_OBJ := $(TUI_SRC:%.c=$(B)/san/%.o) $(B)/san/gen/templates.o $(B)/san/gen/images.o
REL_CLI_OBJ := $(CLI_SRC:%.c=$(B)/rel/%.o)
SAN_CLI_OBJ := $(CLI_SRC:%.c=$(B)/san/%.o)
REL_TESTS   := $(TEST_SRC:tests/unit/%.c=$(B)/rel/tests/%)
SAN_TESTS   := $(TEST_SRC:tests/unit/%.c=$(B)/san/tests/%)

.SECONDARY:

.PHONY: all deps run check check-build check-deps unit unit-san cli tui-test memcheck bench fuzz \
        install uninstall clean

all: $(B)/srt-tui

deps:
	@sh mk/deps.sh

$(B)/rel/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(B)/san/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(SAN_FLAGS) -MMD -MP -c $< -o $@

# Templates: the examples compiled in, regenerated when any example changes.
$(GEN_SRC): $(EXAMPLES) mk/embed.sh
	@mkdir -p $(@D)
	sh mk/embed.sh $@ $(EXAMPLES)

# Explicit rules: B may be an absolute path, which the %.c pattern cannot map.
$(B)/rel/gen/templates.o: $(GEN_SRC)
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) -c $< -o $@

$(B)/san/gen/templates.o: $(GEN_SRC)
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(SAN_FLAGS) -c $< -o $@

# The tables' lookup images (model/images.h): derived once here by the
# library itself, linked without them, instead of in every process.
$(B)/gen/gen_images: mk/gen_images.c $(B)/libsrt.a
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) -o $@ $< $(B)/libsrt.a $(DEP_LIBS) -lm

$(IMAGES_SRC): $(B)/gen/gen_images
	$(B)/gen/gen_images $@

$(B)/rel/gen/images.o: $(IMAGES_SRC)
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) -c $< -o $@

$(B)/san/gen/images.o: $(IMAGES_SRC)
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) $(SAN_FLAGS) -c $< -o $@

$(B)/libsrt.a: $(REL_LIB_OBJ)
	@rm -f $@; ar rcs $@ $^

$(B)/libsrt-san.a: $(SAN_LIB_OBJ)
	@rm -f $@; ar rcs $@ $^

$(B)/srt-tui: $(REL_CLI_OBJ) $(REL_TUI_OBJ) $(B)/libsrt.a
	$(CC) $(CFLAGS) -o $@ $(REL_CLI_OBJ) $(REL_TUI_OBJ) $(B)/libsrt.a $(REL_LIBS) -lm

$(B)/srt-tui-san: $(SAN_CLI_OBJ) $(SAN_TUI_OBJ) $(B)/libsrt-san.a
	$(CC) $(SAN_FLAGS) -o $@ $(SAN_CLI_OBJ) $(SAN_TUI_OBJ) $(B)/libsrt-san.a $(DEP_LIBS) $(CURSES_LIBS) -lm

# Unit tests link the library and, where they test the screen code, the tui/
# objects (never cli/, which holds main()).
$(B)/rel/tests/%: $(B)/rel/tests/unit/%.o $(B)/libsrt.a $(REL_TUI_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(REL_TUI_OBJ) $(B)/libsrt.a \
		$(DEP_LIBS) $(CURSES_LIBS) $(CMOCKA_LIBS) -lm

$(B)/san/tests/%: $(B)/san/tests/unit/%.o $(B)/libsrt-san.a $(SAN_TUI_OBJ)
	@mkdir -p $(@D)
	$(CC) $(SAN_FLAGS) -o $@ $< $(SAN_TUI_OBJ) $(B)/libsrt-san.a \
		$(DEP_LIBS) $(CURSES_LIBS) $(CMOCKA_LIBS) -lm

$(B)/bench/%: bench/%.c $(B)/libsrt.a $(REL_TUI_OBJ)
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) -O2 -g -o $@ $< $(REL_TUI_OBJ) \
		$(B)/libsrt.a $(DEP_LIBS) $(CURSES_LIBS) -lm

run: deps
	@$(MAKE) --no-print-directory $(B)/srt-tui
	./$(B)/srt-tui new

check: deps
	@$(MAKE) --no-print-directory check-build
	@sh tests/run.sh $(B)

check-build: $(B)/srt-tui $(B)/srt-tui-san $(REL_TESTS) $(SAN_TESTS)

# Individual parts of `make check`, for a faster loop while working on one layer.
unit: $(REL_TESTS)
	@sh tests/run.sh $(B) unit
unit-san: $(SAN_TESTS)
	@sh tests/run.sh $(B) unit-san
cli: $(B)/srt-tui $(B)/srt-tui-san
	@sh tests/run.sh $(B) cli
tui-test: $(B)/srt-tui
	@sh tests/run.sh $(B) tui
memcheck: $(REL_TESTS)
	@sh tests/run.sh $(B) memcheck

bench: deps
	@sh mk/deps.sh python3-yaml python3-jsonschema
	@$(MAKE) --no-print-directory $(B)/srt-tui $(BENCH_SRC:bench/%.c=$(B)/bench/%)
	@sh bench/run.sh $(B)

fuzz: deps
	@sh mk/deps.sh clang libclang-rt-14-dev
	@sh fuzz/run.sh $(B) $${FUZZ_SECONDS:-180}

install: $(B)/srt-tui
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DATADIR)/themes \
		$(DESTDIR)$(DATADIR)/examples $(DESTDIR)$(COMPDIR)
	install -m 755 $(B)/srt-tui $(DESTDIR)$(BINDIR)/srt-tui
	install -m 644 docs/srt-tui.1 $(DESTDIR)$(MANDIR)/man1/srt-tui.1
	install -m 644 themes/*.theme $(DESTDIR)$(DATADIR)/themes/
	install -m 644 examples/*.yaml $(DESTDIR)$(DATADIR)/examples/
	install -m 644 docs/srt-tui.bash-completion $(DESTDIR)$(COMPDIR)/srt-tui

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/srt-tui $(DESTDIR)$(MANDIR)/man1/srt-tui.1 \
		$(DESTDIR)$(COMPDIR)/srt-tui
	rm -rf $(DESTDIR)$(DATADIR)

clean:
	rm -rf $(B)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
