# SEMAPRAX — C11 toolchain.  POSIX make; `make help` lists the targets.

CC      ?= cc
CFLAGS  ?= -O2 -g
WARN     = -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Wmissing-declarations -Wpointer-arith -Wvla
CPPFLAGS = -D_POSIX_C_SOURCE=200809L -MMD -MP
LDLIBS   = -lm -ljansson -lpcre2-8

BUILD   ?= build
SRCS    := $(sort $(wildcard src/*/*.c))
OBJS    := $(SRCS:src/%.c=$(BUILD)/obj/%.o)
# The native lane's C runtime (src/emit_c/rt/*.h) embedded as string constants.
# The shared runtime (src/rt/*.c) is compiled into the binary AND embedded.
RT_SRCS := $(sort $(wildcard src/emit_c/rt/*.h)) $(sort $(wildcard src/rt/*.c)) src/rt/domains.h
RT_GEN   = $(BUILD)/gen/rt_text.c
RT_OBJ   = $(BUILD)/obj/emit_c/rt_text.o
OBJS    += $(RT_OBJ)
# The language card (`semaprax help language`) embedded as a string constant.
CARD_GEN = $(BUILD)/gen/card_text.c
CARD_OBJ = $(BUILD)/obj/cli/card_text.o
OBJS    += $(CARD_OBJ)
# The bundled standard library's module sources (std/<pkg>/src/<pkg>.spx;
# not the examples and tests modules) for `[dependencies]` and `help library`.
STD_SRCS := $(sort $(filter-out %/examples.spx %/tests.spx,$(wildcard std/*/src/*.spx)))
STD_GEN  = $(BUILD)/gen/std_text.c
STD_OBJ  = $(BUILD)/obj/project/std_text.o
OBJS    += $(STD_OBJ)
# Their function names by package, for the checker's T203 help (src/sema/std_names.h).
STDN_GEN = $(BUILD)/gen/std_names.c
STDN_OBJ = $(BUILD)/obj/sema/std_names.o
OBJS    += $(STDN_OBJ)
# The Wasm lane's embedded parts: src/rt compiled for wasm32 (clang, wasm-ld;
# empty without them) and the ES module host (src/emit_wasm/host/).
WASM_RT  = $(BUILD)/gen/rt.wasm
WASM_GEN = $(BUILD)/gen/wasm_embed.c
WASM_OBJ = $(BUILD)/obj/emit_wasm/wasm_embed.o
WASM_HOST = src/emit_wasm/host/host.mjs src/emit_wasm/host/run.mjs
OBJS    += $(WASM_OBJ)
LIBOBJS := $(filter-out $(BUILD)/obj/cli/%,$(OBJS))
BIN      = $(BUILD)/semaprax
RUNNER   = $(BUILD)/spx-test

.PHONY: bench-gen bench-service all lint test test-sanitize test-sanitize-lane test-native-sanitize test-native-sanitize-fixtures test-native-sanitize-random bless bench bench-interp bench-scale fuzz fuzz-check fuzz-run fuzz-manifest docs clean help bench-cli bench-agent

all: $(BIN)

# The release binary is linked statically when the toolchain has the static
# libraries (Debian: libc6-dev, libjansson-dev, libpcre2-dev ship them): no
# dynamic loader per process (~0.3 ms and ~1 MB of resident libc pages; docs/
# DECISIONS.md "Memory and process cost").  Sanitizer builds link dynamically
# (ASan needs it); `make BIN_STATIC=` forces a dynamic link, and a failed static
# link falls back to one with a note.
BIN_STATIC ?= -static
BIN_LINK    = $(if $(findstring -fsanitize,$(CFLAGS) $(LDFLAGS)),,$(BIN_STATIC))
$(BIN): $(OBJS)
	@if [ -n "$(BIN_LINK)" ] && echo "$(CC) $(CFLAGS) $(LDFLAGS) $(BIN_LINK) -o $@ ... $(LDLIBS)" && \
	   $(CC) $(CFLAGS) $(LDFLAGS) $(BIN_LINK) -o $@ $(OBJS) $(LDLIBS) 2>$@.link.log; then \
		cat $@.link.log; rm -f $@.link.log; \
	else \
		if [ -n "$(BIN_LINK)" ]; then echo "note: the static link failed (see $@.link.log); linking dynamically"; fi; \
		echo "$(CC) $(CFLAGS) $(LDFLAGS) -o $@ ... $(LDLIBS)"; \
		$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS); \
	fi

$(RT_GEN): $(RT_SRCS) src/rt/domains.def tools/embed_rt.sh
	@mkdir -p $(dir $@)
	sh tools/embed_rt.sh $(RT_SRCS) > $@

$(RT_OBJ): $(RT_GEN)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -Isrc/emit_c -c -o $@ $(RT_GEN)

$(CARD_GEN): docs/language-card.md tools/embed_text.sh
	@mkdir -p $(dir $@)
	sh tools/embed_text.sh cli_language_card docs/language-card.md > $@

$(CARD_OBJ): $(CARD_GEN)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -c -o $@ $(CARD_GEN)
$(STD_GEN): $(STD_SRCS) tools/embed_std.sh
	@mkdir -p $(dir $@)
	sh tools/embed_std.sh $(STD_SRCS) > $@

$(STD_OBJ): $(STD_GEN)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -Isrc/project -c -o $@ $(STD_GEN)

$(STDN_GEN): $(STD_SRCS) tools/embed_std_names.sh
	@mkdir -p $(dir $@)
	sh tools/embed_std_names.sh $(STD_SRCS) > $@

$(STDN_OBJ): $(STDN_GEN) src/sema/std_names.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -Isrc/sema -c -o $@ $(STDN_GEN)

$(WASM_RT): src/rt/num.c src/rt/float.c src/rt/host.c src/rt/utf8.c src/rt/text.c src/rt/heap.c src/rt/coll.c src/rt/rt.h src/rt/domains.h src/rt/domains.def src/rt/wasm32/shim.c src/rt/wasm32/string.h tools/build_rt_wasm.sh
	@mkdir -p $(dir $@)
	sh tools/build_rt_wasm.sh $@

$(WASM_GEN): $(WASM_RT) $(WASM_HOST) tools/embed_wasm.sh
	sh tools/embed_wasm.sh $(WASM_RT) $(WASM_HOST) > $@

$(WASM_OBJ): $(WASM_GEN)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -Isrc/emit_wasm -c -o $@ $(WASM_GEN)

# The same binary as built without clang or wasm-ld (SPX-W102): the runtime
# module made by tools/build_rt_wasm.sh with a compiler that does not exist
# (empty), linked with every other object of the build; tests/wasm-test.sh
# checks the Wasm lane's refusal with it.
NOWASM_BIN = $(BUILD)/semaprax-nowasm
NOWASM_RT  = $(BUILD)/gen/rt-none.wasm
NOWASM_GEN = $(BUILD)/gen/wasm_embed_none.c
NOWASM_OBJ = $(BUILD)/obj/emit_wasm/wasm_embed_none.o
$(NOWASM_RT): tools/build_rt_wasm.sh
	@mkdir -p $(dir $@)
	WASM_CC=$(BUILD)/no-such-clang sh tools/build_rt_wasm.sh $@ 2> /dev/null

$(NOWASM_GEN): $(NOWASM_RT) $(WASM_HOST) tools/embed_wasm.sh
	sh tools/embed_wasm.sh $(NOWASM_RT) $(WASM_HOST) > $@

$(NOWASM_OBJ): $(NOWASM_GEN)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -Isrc/emit_wasm -c -o $@ $(NOWASM_GEN)

$(NOWASM_BIN): $(filter-out $(WASM_OBJ),$(OBJS)) $(NOWASM_OBJ)
	@echo "$(CC) $(CFLAGS) $(LDFLAGS) -o $@ ... $(NOWASM_OBJ) $(LDLIBS)"
	@$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter-out $(WASM_OBJ),$(OBJS)) $(NOWASM_OBJ) $(LDLIBS)

$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

UNIT = $(BUILD)/spx-unit
UNIT_SRCS = tests/unit/unit.c tests/unit/session_test.c tests/unit/program_test.c tests/unit/rt_test.c tests/unit/graph_test.c tests/unit/wasm_test.c tests/unit/mono_test.c tests/unit/float_test.c tests/unit/std_names_test.c
$(UNIT): $(UNIT_SRCS) tests/unit/unit.h $(LIBOBJS)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(UNIT_SRCS) $(LIBOBJS) $(LDLIBS)

$(RUNNER): tests/runner/runner.c
	@mkdir -p $(BUILD)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ tests/runner/runner.c

# The random program generator of tests/random-test.sh (tools/progen.c).
PROGEN = $(BUILD)/progen
PROGEN_SRCS = tools/progen.c tools/progen_feat.c tools/progen_feat2.c tools/progen_feat3.c tools/progen_feat4.c tools/progen_feat5.c tools/progen_feat6.c tools/progen_feat7.c tools/progen_feat8.c tools/progen_feat9.c
$(PROGEN): $(PROGEN_SRCS) tools/progen.h
	@mkdir -p $(BUILD)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -o $@ $(PROGEN_SRCS)

-include $(OBJS:.o=.d)

help:
	@echo "make            build $(BIN)"
	@echo "make install    copy it to \$$(DESTDIR)\$$(PREFIX)/bin (PREFIX=/usr/local); make uninstall removes it"
	@echo "make test       lint, fixture suite, docs staleness check, unit tests, native, wasm and random lane agreement"
	@echo "make lint       include direction, file sizes, module prefixes (docs/ARCHITECTURE.md)"
	@echo "make test-sanitize   every suite with semaprax under ASan+UBSan; the native lane's programs under them too"
	@echo "make test-cc    the suites a C compiler choice can change (.ci/run's clang lane: make test-cc CC=clang)"
	@echo "make test-native-sanitize   the native lane's generated programs (fixtures, 40 random) under ASan+UBSan and its leak check"
	@echo "make bless      rewrite snapshot files (never markers)"
	@echo "make bench      front-end and check throughput and memory, the interpreter beside Lua 5.4, native beside C, Wasm beside native"
	@echo "make bench-cli  whole-process time and peak RSS of parse/check/fmt --check (48k and 20 lines)"
	@echo "make bench-agent    bytes and lexical units of graph/context/query answers, graph/context time and RSS (2,000 functions)"
	@echo "make bench-interp   only the interpreter benchmarks (needs lua5.4 for the ratios)"
	@echo "make bench-gen  each generated stress fixture's check within 0.5 s of user CPU (make test guards 2 s)"
	@echo "make bench-native   only the native lane beside hand-written C (same \$$CC -O2)"
	@echo "make bench-wasm     the Wasm lane under node beside the native lane: time ratios, module vs stripped executable size"
	@echo "make bench-project  project check at 20..200 modules x 50 functions: time, RSS, growth (fails > 13x)"
	@echo "make bench-scale    each checker stress shape at n and 10n: fails when the time grows > 13x"
	@echo "make fuzz       libFuzzer over lex/parse/fmt (FUZZ_SECONDS=600)"
	@echo "make fuzz-check libFuzzer over parse/check/HIR lowering and validation"
	@echo "make fuzz-manifest libFuzzer over the semaprax.toml reader (render round trip)"
	@echo "make fuzz-run   libFuzzer over check/HIR/interpreter (small budget, no host effects)/C and Wasm emission (Wasm validated)"
	@echo "make docs       regenerate docs/diagnostics.md"
	@echo "make compat REF=<dir>   agreement with the reference's own tests (tools/refmine; REF: a checkout or git dir of it)"

clean:
	rm -rf $(BUILD) build-*

# `make install [PREFIX=/usr/local] [DESTDIR=]`: the one binary into
# $(DESTDIR)$(PREFIX)/bin (it needs no other file); `make uninstall` removes it.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
install: $(BIN)
	install -d "$(DESTDIR)$(BINDIR)"
	install -m 0755 $(BIN) "$(DESTDIR)$(BINDIR)/semaprax"
uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/semaprax"
.PHONY: install uninstall

# Agreement with the reference implementation's own test expectations
# (tools/refmine, issue 11 §1). REF is a checkout of the reference, its git
# directory (REV picks the commit) or a directory of its newer test files;
# several, space-separated, are merged. Not part of `make test`: it needs
# the reference's sources, which CI does not have.
REV ?= HEAD
compat: $(BIN)
	@test -n "$(REF)" || { echo "make compat REF=<reference checkout or git dir> [REV=commit]"; exit 2; }
	python3 tools/refmine/selftest.py
	python3 tools/refmine/refmine.py --bin $(BIN) --out $(BUILD)/refmine --rev $(REV) $(foreach r,$(REF),--ref $(r))
.PHONY: compat

# `make ownfuzz`: the ownership mutation fuzzer (tools/ownfuzz.py): mutants
# of tests/fixtures/run and progen programs that `check` accepts run in the
# interpreter and natively under ASan+UBSan; a report or a lane disagreement
# is a finding in $(BUILD)/ownfuzz/findings. Not part of `make test`;
# OWNFUZZ_N mutants, deterministic for OWNFUZZ_SEED. OWNFUZZ_FLAGS adds
# e.g. --interp-bin build-san/semaprax (the interpreter under ASan) or
# --known-bin <a build with candidate checker fixes>.
OWNFUZZ_N ?= 200
OWNFUZZ_SEED ?= 1
ownfuzz: $(BIN) $(PROGEN)
	python3 tools/ownfuzz.py --selftest
	nice python3 tools/ownfuzz.py --bin $(BIN) --progen $(PROGEN) --count $(OWNFUZZ_N) --seed $(OWNFUZZ_SEED) --out $(BUILD)/ownfuzz $(OWNFUZZ_FLAGS)
.PHONY: ownfuzz

# `make fixsweep`: the machine-applicable fix sweep (tools/fixsweep.py):
# every fixture that checks clean is mutated (a `;` deleted, `->`/`=>`
# swapped, `mut` dropped, a wrong literal suffix, a misspelled name, a `: T`
# removed, a match arm dropped, `-> T` after the contract, `;` after a tail)
# and each diagnostic's fixes are applied to the mutant alone; a fix that
# leaves its diagnostic or adds an error is a WRONG line (exit 1).
# Deterministic for FIXSWEEP_SEED; FIXSWEEP_FLAGS adds e.g. --per-op 5.
FIXSWEEP_SEED ?= 1
fixsweep: $(BIN)
	nice python3 tools/fixsweep.py --bin $(BIN) --seed $(FIXSWEEP_SEED) --jobs 2 $(FIXSWEEP_FLAGS)
.PHONY: fixsweep
# `make test`'s bounded sweep (about 9 s of CPU): the judge's selftest, a
# fixed sample of 200 unmarked fixtures, and the files whose mutants once
# got wrong fixes (P106 `-> T` after a contract, `;` before a `-` tail,
# T202 `names` for a pattern field dropped, T001's near type at one use of a
# name whose declaration was the misspelt one), every mutant of theirs.  Any
# wrong fix fails it.
FIXSWEEP_KNOWN = tests/fixtures/run/arith_neg_overflow.spx \
	tests/fixtures/run/mut_closures_ensures_fail.spx \
	tests/fixtures/check/T253/near_miss_block_in_contract.spx \
	tests/fixtures/check/U106/near_miss_let_in_contract.spx \
	tests/fixtures/run/user25_inv.spx tests/fixtures/run/agent_kv_parser.spx \
	tests/fixtures/check/T216/near_miss_arms_agree.spx examples
FIXSWEEP_SAMPLE ?= 200
FIXSWEEP_PY = $(if $(SPX_PYTHON),$(SPX_PYTHON) -S,python3)
FIXSWEEP_PER_OP ?= 40
test-fixsweep: $(BIN)
	$(FIXSWEEP_PY) tools/fixsweep.py --bin $(BIN) --selftest
	$(FIXSWEEP_PY) tools/fixsweep.py --bin $(BIN) --seed 1 --sample $(FIXSWEEP_SAMPLE)
	$(if $(filter 0,$(FIXSWEEP_PER_OP)),,$(FIXSWEEP_PY) tools/fixsweep.py --bin $(BIN) --seed 1 --per-op $(FIXSWEEP_PER_OP) $(FIXSWEEP_KNOWN))

# ---- tests ------------------------------------------------------------------
# python3 resolved once per make run for the suites (tests/lib.sh, $t_python:
# a version manager's shim on PATH costs ~0.4 s of CPU per start)
ifeq ($(origin SPX_PYTHON),undefined)
ifneq ($(filter test%,$(MAKECMDGOALS)),)
SPX_PYTHON := $(shell python3 -c 'import sys; print(sys.executable)' 2> /dev/null)
export SPX_PYTHON
endif
endif
FIXTURES = tests/fixtures
GEN      = $(BUILD)/gen-fixtures

$(GEN)/.stamp: tests/gen-fixtures.sh
	@rm -rf $(GEN)
	sh tests/gen-fixtures.sh $(GEN)
	@touch $@

# The generated fixtures' CPU budget (issue 11: each `check` under 0.5 s of
# user CPU): `make bench` (bench-gen) holds them to GEN_CPU_LIMIT; `make test`
# (test-scale) to GEN_CPU_TEST, four times that, a guard against super-linear
# work (minutes, once).  The budget itself is a performance target, measured
# by make bench and not by a timed test: beside another suite on a loaded
# machine the 100,000 functions (0.25 s idle, gcc build) once took 0.54 s.  test-sanitize raises the
# guard for the ASan/UBSan slowdown.  tools/bench_scale.c.
GEN_CPU_LIMIT ?= 0.5
GEN_CPU_TEST  ?= 2
SCALE         = $(BUILD)/bench_scale

$(SCALE): tools/bench_scale.c
	@mkdir -p $(BUILD)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ tools/bench_scale.c

# tests/random-test.sh: RANDOM_N generated programs from seed RANDOM_SEED.
# test-sanitize runs RANDOM_N_SAN of them (test-native-sanitize-random): most
# of a program's cost is compiling its C, which the plain lanes already do 300
# times; what the sanitizer lane adds is the checker, interpreter and emitter
# and the program itself under ASan+UBSan.  Its seeds follow the plain lanes'
# range: new programs.
RANDOM_N      ?= 300
RANDOM_SEED   ?= 1
RANDOM_N_SAN  ?= 40
# RANDOM_CLANG=0: no clang -fsyntax-only pass over each program's C when CC is
# not clang (.ci/run's gcc lane: its clang lane compiles 150 programs of its
# own with clang -Werror)
RANDOM_CLANG  ?= 1

# `make test` is one target per suite, so `make -j2 test` runs two suites at
# once (each suite's own steps stay in order; every suite works in its own
# mktemp directory).  The longest come first, so the short ones fill the
# other core; `make -j2 -Otarget test` (.ci/run) keeps each suite's output
# together.
TESTS = test-random test-service test-native test-wasm test-cap test-cli \
	test-patch test-project test-fixtures test-web test-std test-registers \
	test-lint test-patch-crash test-lsp test-native-inject test-unit \
	test-scale test-docs test-browser test-fixsweep test-install
.PHONY: $(TESTS)

test: $(TESTS)

# What the suites run besides the suites themselves.  .ci/run builds them
# first, so that `make -j2 test` then starts the suites in the order of their
# list (the longest first); while a shared prerequisite is still being built,
# make starts the suites that wait on it in an order of its own.
TEST_TOOLS = $(BIN) $(NOWASM_BIN) $(RUNNER) $(PROGEN) $(SCALE) $(UNIT) $(GEN)/.stamp
.PHONY: test-tools
test-tools: $(TEST_TOOLS)

# The second compiler's lane (.ci/run: CC=clang): the suites whose outcome
# depends on the compiler that built semaprax or that compiles the generated
# C (`run --native`, `build`, -Werror on the emitted code), plus the fixture
# suite and the unit tests for the checker built by it.  The other suites test
# behaviour no compiler choice changes short of undefined behaviour, which the
# sanitizer lane looks for; they run in the gcc lane and the sanitizer lane
# (docs/DECISIONS.md "ci41").  A new suite that compiles C goes here too.
TESTS_CC = test-random test-native test-cap test-fixtures test-std \
	test-native-inject test-unit test-scale test-install
.PHONY: test-cc
test-cc: $(TESTS_CC)

test-lint: $(BIN)
	sh tools/lint.sh $(BUILD)
# `make install` into a scratch DESTDIR: the installed binary is the built one
# and runs from there alone (statically linked where the archives are); then
# `make uninstall` removes it.
test-install: $(BIN)
	rm -rf $(BUILD)/install-test
	$(MAKE) --no-print-directory install DESTDIR=$(BUILD)/install-test PREFIX=/opt/spx > /dev/null
	cmp $(BIN) $(BUILD)/install-test/opt/spx/bin/semaprax
	test "$$(cd / && $(abspath $(BUILD))/install-test/opt/spx/bin/semaprax version)" = "$$($(BIN) version)"
	$(MAKE) --no-print-directory uninstall DESTDIR=$(BUILD)/install-test PREFIX=/opt/spx > /dev/null
	test ! -e $(BUILD)/install-test/opt/spx/bin/semaprax
	rm -rf $(BUILD)/install-test
	@echo "install: make install and make uninstall ok"
test-unit: $(UNIT)
	$(UNIT)
test-scale: $(BIN) $(SCALE) $(GEN)/.stamp
	$(SCALE) --fixtures --limit $(GEN_CPU_TEST) $(BIN) $(GEN)
test-cli: $(BIN)
	sh tests/cli-test.sh $(BIN)
test-patch: $(BIN)
	sh tests/patch-test.sh $(BIN)
test-patch-crash: $(BIN)
	sh tests/patch-crash.sh $(BIN)
test-project: $(BIN)
	sh tests/project-test.sh $(BIN)
test-registers: $(BIN)
	sh tests/registers-test.sh $(BIN)
test-std: $(BIN)
	CC="$(CC)" sh tests/std-test.sh $(BIN)
test-service: $(BIN)
	sh tests/service-test.sh $(BIN)
test-lsp: $(BIN)
	sh tests/lsp-test.sh $(BIN)
test-docs: $(BIN)
	sh tests/docs-test.sh $(BIN)
test-native: $(BIN)
	CC="$(CC)" sh tests/native-test.sh $(BIN)
test-cap: $(BIN)
	CC="$(CC)" sh tests/cap-test.sh $(BIN)
test-native-inject: $(BIN)
	CC="$(CC)" sh tests/native-inject.sh $(BIN)
test-wasm: $(BIN) $(NOWASM_BIN)
	NOWASM_BIN=$(NOWASM_BIN) sh tests/wasm-test.sh $(BIN)
test-web: $(BIN)
	sh tests/web-test.sh $(BIN)
test-browser: $(BIN)
	sh tests/browser-test.sh $(BIN)
test-random: $(BIN) $(PROGEN)
	CC="$(CC)" RANDOM_CLANG=$(RANDOM_CLANG) sh tests/random-test.sh $(BIN) $(RANDOM_N) $(RANDOM_SEED)
test-fixtures: $(BIN) $(RUNNER) $(GEN)/.stamp
	$(RUNNER) --bin $(BIN) $(FIXTURES) $(GEN)

bless: $(BIN) $(RUNNER)
	$(RUNNER) --bless --bin $(BIN) $(FIXTURES)

# `make lint`: include direction, file sizes and module prefixes
# (docs/ARCHITECTURE.md); known debts in tools/lint-debt.txt.
lint: $(BIN)
	sh tools/lint.sh $(BUILD)

docs: $(BIN)
	$(BIN) explain --catalog > docs/diagnostics.md

# The sanitizer lane (`make test-sanitize`): every suite of `make test` with
# semaprax built under AddressSanitizer + UndefinedBehaviorSanitizer
# (LeakSanitizer included) in a separate build tree; any report fails the run.
# The native lane's two suites run with --sanitize in it instead of their plain
# form: the sanitized semaprax emits C that is compiled under ASan+UBSan with
# the runtime's leak check (tests/native-test.sh --sanitize), so the emitter
# and the emitted program are checked in one pass; the random programs
# (RANDOM_N_SAN, seeds after the plain lanes') are emitted with every function
# body in chunks of 3 statements (SEMAPRAX_C_CHUNK, src/emit_c/emit.c), so the
# chunked form runs under the sanitizers too.  The fix sweep samples
# FIXSWEEP_SAMPLE_SAN fixtures and skips the known files: its judgement of
# fixes is the plain lanes' work, what the lane adds is mutated input under
# ASan.  Left out: lint and install (nothing of semaprax runs), the browser
# check (Chromium over a package test-web builds here too) and patch-crash
# (kill timing; test-patch runs the same applies here)
# (docs/DECISIONS.md "ci41").
SAN_FLAGS = -O1 -g -fsanitize=address,undefined $(SAN_UB) -fno-omit-frame-pointer -fno-sanitize-recover=all
# UBSan traps (SIGILL at the faulting instruction) instead of calling its
# runtime: the same checks, without the 8.5 MB of per-site report data that
# every process start maps and LeakSanitizer scans at exit (~25% of the lane).
# A trap fails the suite like a report; `make test-sanitize SAN_UB=` rebuilds
# with UBSan's full reports to read one.  The native lane's programs get the
# same flag there (tests/lane-lib.sh lane_sanitize_env).
SAN_UB    = -fsanitize-undefined-trap-on-error
# The sanitized executables are linked position-dependent with the sanitizer
# runtimes inside (gcc's -static-libasan/-static-libubsan; clang links them
# statically already): a PIE ASan build of semaprax carries ~316,000 dynamic
# relocations (ASan's global descriptors, UBSan's type data) that every process
# start applies, ~37% of the ~36 ms of CPU each of the lane's tens of thousands
# of short processes cost (docs/DECISIONS.md "ci32").  Same instrumentation,
# same checks.
SAN_LINK  = -no-pie $(if $(findstring clang,$(CC)),,-static-libasan -static-libubsan)
FIXSWEEP_SAMPLE_SAN ?= 40
SAN_STACK ?= 2
# ($(MAKE) must stand in the recipe itself, not inside a variable: only then
# does the sub-make share the jobserver, -j2, instead of running alone at -j1)
SAN_VARS  = BUILD=build-san CFLAGS="$(SAN_FLAGS)" LDFLAGS="$(SAN_FLAGS) $(SAN_LINK)" GEN_CPU_TEST=10 \
	RANDOM_SEED=$$(($(RANDOM_N) + 1)) FIXSWEEP_SAMPLE=$(FIXSWEEP_SAMPLE_SAN) FIXSWEEP_PER_OP=0
# malloc_context_size=$(SAN_STACK): an allocation's stack is recorded 2 frames
# deep (30 by default; the allocator's caller) in reports: each distinct stack
# goes into a 4 MB hash table at a page of its own, and 30 frames cost ~16% of
# the lane's CPU, 5 frames ~9%.  The same errors are found; `make
# test-sanitize SAN_STACK=30` reports full allocation stacks.
# PLAIN_BIN: the plain semaprax is the oracle of the lane's differentials,
# where test-fixtures already runs the same command under ASan: the
# interpreter's side of the native differential for run/ fixtures
# (tests/lane-lib.sh lane_interp_run), the service's `check --json`
# (tests/service/client.py cli_check) and the Wasm modules tests/wasm-test.sh
# compares byte for byte.
test-sanitize: $(BIN)
	$(MAKE) $(SAN_VARS) test-tools
	ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:malloc_context_size=$(SAN_STACK) SAN_STACK=$(SAN_STACK) SAN_UB="$(SAN_UB)" \
	UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1 \
	PLAIN_BIN=$(abspath $(BIN)) \
	$(MAKE) $(SAN_VARS) test-sanitize-lane
# the longest first (-j2 fills the other core with the short ones)
TESTS_SAN = test-fixtures test-native-sanitize-fixtures test-wasm test-cli \
	test-native-sanitize-random \
	$(filter-out test-native test-random test-fixtures test-wasm test-cli test-lint test-install \
		test-browser test-patch-crash,$(TESTS))
test-sanitize-lane: $(TESTS_SAN)

test-native-sanitize: test-native-sanitize-fixtures test-native-sanitize-random
test-native-sanitize-fixtures: $(BIN)
	CC="$(CC)" sh tests/native-test.sh --sanitize $(BIN)
test-native-sanitize-random: $(BIN) $(PROGEN)
	SEMAPRAX_C_CHUNK=3 CC="$(CC)" sh tests/random-test.sh --sanitize $(BIN) $(RANDOM_N_SAN) $(RANDOM_SEED)

# ---- bench and fuzz (tools/benchgen.c, tools/bench_frontend.c, tests/fuzz/) ----
# `make bench`: throughput of lex+parse, fmt and check (sema_check +
# revision; the generated program must verify with zero errors) on a
# generated 120,000-line program, peak RSS of one-shot parse+fmt and
# parse+check runs, and a 10x scaling check of all four (12,000 vs 120,000
# lines).  `make fuzz`: libFuzzer + ASan + UBSan over parse/fmt,
# seeded from tests/fixtures/**/*.spx; FUZZ_SECONDS=600 by default; exits
# non-zero on a finding (saved under $(BUILD)/fuzz/findings/).

BENCH_LINES  = 120000
BENCH_SMALL  = 12000
BENCH_GEN    = $(BUILD)/benchgen
BENCH_DRIVER = $(BUILD)/bench_frontend

$(BENCH_GEN): tools/benchgen.c
	@mkdir -p $(BUILD)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -o $@ tools/benchgen.c

$(BENCH_DRIVER): tools/bench_frontend.c $(LIBOBJS)
	@mkdir -p $(BUILD)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -o $@ tools/bench_frontend.c $(LIBOBJS) $(LDLIBS)

$(BUILD)/bench/gen-%.spx: $(BENCH_GEN)
	@mkdir -p $(BUILD)/bench
	$(BENCH_GEN) $* > $@

bench: bench-cli bench-agent bench-interp bench-native bench-wasm bench-scale bench-gen bench-service bench-project $(BENCH_DRIVER) $(BUILD)/bench/gen-$(BENCH_LINES).spx $(BUILD)/bench/gen-$(BENCH_SMALL).spx
	$(BENCH_DRIVER) $(BUILD)/bench/gen-$(BENCH_LINES).spx
	$(BENCH_DRIVER) --scale $(BUILD)/bench/gen-$(BENCH_SMALL).spx $(BUILD)/bench/gen-$(BENCH_LINES).spx

# `make bench-scale` (tools/bench_scale.c): every checker stress shape (generic
# nesting, nested blocks/ifs/matches/loops, match arms, record fields, variant
# cases, generic call chains, nested calls, a long string, many functions /
# lets / lets with branches / `?` / parameters / closures, `&&` chains, records
# of records) written at n and 10n and timed as whole `semaprax check`
# processes (median of BENCH_SCALE_RUNS, user+system CPU); fails when one grows
# more than 13x.
BENCH_SCALE_RUNS ?= 5

# `make bench-service`: the semantic service on a generated 10,000-function
# program: cold check, one-body-edit and comment-edit refreshes (docs/service.md);
# then the CPU per one-body refresh (JSON-RPC edits, LSP ranged didChange) against
# a cold check's (tests/service/cpu.py: steadier than wall time on a loaded machine);
# then a served 40-module project of 10,000 functions: CPU per body, contract and
# added-function refresh against a cold `check` (tests/service/bench_project.py).
bench-service: $(BIN)
	PYTHONDONTWRITEBYTECODE=1 python3 tests/service/bench.py $(BIN) 10000
	PYTHONDONTWRITEBYTECODE=1 python3 tests/service/cpu.py $(BIN) 10000 1000
	PYTHONDONTWRITEBYTECODE=1 python3 tests/service/bench_project.py $(BIN) 40 250 400

bench-scale: $(BIN) $(SCALE)
	$(SCALE) --runs $(BENCH_SCALE_RUNS) --dir $(BUILD)/bench/scale $(BIN)
# `make bench-gen`: each generated stress fixture's `check` within GEN_CPU_LIMIT
# seconds of user CPU (the issue's 0.5 s; run on an idle machine)
bench-gen: $(BIN) $(SCALE) $(GEN)/.stamp
	$(SCALE) --fixtures --limit $(GEN_CPU_LIMIT) $(BIN) $(GEN)


# `make bench-project` (tools/bench_project.c): whole-process `check` of
# generated projects of 20..200 modules x 50 functions (time, peak RSS);
# fails when the CPU time grows more than 13x from 20 to 200 modules.
BENCH_PROJECT      = $(BUILD)/bench_project
BENCH_PROJECT_RUNS = 5
$(BENCH_PROJECT): tools/bench_project.c tools/bench_proc.c tools/bench_proc.h
	@mkdir -p $(BUILD)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -o $@ tools/bench_project.c tools/bench_proc.c

.PHONY: bench-project
bench-project: $(BIN) $(BENCH_PROJECT)
	@mkdir -p $(BUILD)/bench
	$(BENCH_PROJECT) --runs $(BENCH_PROJECT_RUNS) --dir $(BUILD)/bench/project $(BIN)

# `make bench-cli`: what a user pays per command (tools/bench_cli.c): the
# median wall time and peak RSS of fresh `parse`, `check` and `fmt --check`
# processes on a generated ~48k-line program and a 20-line one, beside the
# targets (check: <= 25 ms and <= 10 MB on the large file, <= 2 ms on the
# small one).
BENCH_CLI       = $(BUILD)/bench_cli
BENCH_CLI_LINES = 48007
BENCH_CLI_RUNS  = 11
$(BENCH_CLI): tools/bench_cli.c tools/bench_proc.c tools/bench_proc.h
	@mkdir -p $(BUILD)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -o $@ tools/bench_cli.c tools/bench_proc.c

.PHONY: bench-cli
# The process floor: an empty C main, linked as the release binary is
# (statically where the C library allows it).
$(BUILD)/bench/floor:
	@mkdir -p $(BUILD)/bench
	@printf 'int main(void) { return 0; }\n' > $@.c
	@$(CC) -O2 $(BIN_STATIC) -o $@ $@.c 2>/dev/null || $(CC) -O2 -o $@ $@.c

bench-cli: $(BIN) $(BENCH_CLI) $(BUILD)/bench/gen-$(BENCH_CLI_LINES).spx $(BUILD)/bench/gen-20.spx $(BUILD)/bench/floor
	$(BENCH_CLI) --runs $(BENCH_CLI_RUNS) $(BIN) $(BUILD)/bench/gen-$(BENCH_CLI_LINES).spx $(BUILD)/bench/gen-20.spx $(BUILD)/bench/floor

# `make bench-agent` (tools/bench_agent.c): what an agent pays to read a
# program — bytes and lexical units of `graph`, `context app.main --depth 1`
# and `query --id calculator.add --json` over bench/agent/calculator.spx
# beside the reference's figures, the same questions about two larger programs
# (examples/inventory.spx, examples/ledger.spx), then the median wall time and peak RSS of
# fresh `graph` and `context` processes on a generated 2,000-function file
# (reference: 340 ms, 43 MB; target a tenth).
BENCH_AGENT      = $(BUILD)/bench_agent
BENCH_AGENT_RUNS ?= 11
$(BENCH_AGENT): tools/bench_agent.c tools/bench_proc.c tools/bench_proc.h
	@mkdir -p $(BUILD)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -o $@ tools/bench_agent.c tools/bench_proc.c

bench-agent: $(BIN) $(BENCH_AGENT)
	@mkdir -p $(BUILD)/bench
	$(BENCH_AGENT) --runs $(BENCH_AGENT_RUNS) $(BIN) bench/agent/calculator.spx $(BUILD)/bench/agent-2000.spx

# `make bench-interp`: each bench/interp/NAME.spx under `semaprax run` next to
# its Lua 5.4 twin NAME.lua (tools/bench_interp.sh): best of
# $(BENCH_INTERP_RUNS) wall-clock runs, per-program and geometric-mean time
# ratios; both must print the same result.  Without lua5.4 the Lua columns
# are skipped with a message.  Target (issue 11): geomean <= 1.0x Lua 5.4,
# no program over 1.5x.
BENCH_INTERP_RUNS ?= 3
LUA               ?= lua5.4

.PHONY: bench-interp
bench-interp: $(BIN)
	sh tools/bench_interp.sh -n $(BENCH_INTERP_RUNS) -s $(BIN) -l $(LUA)

# `make bench-native`: each bench/native/NAME.spx built by the native lane
# (tools/bench_native.c: verify, emit_c, native_compile as `semaprax build`
# does) next to its hand-written C twin NAME.c built by the same $(CC) and
# flags: best of $(BENCH_NATIVE_RUNS) alternating runs, per-program and
# geometric-mean time ratios (target <= 1.15), emit_c time as a share of the
# C compiler's time over those plus examples/*.spx (target < 5%).  Programs
# the lane refuses (B110) are listed and left out.
BENCH_NATIVE_RUNS ?= 3
BENCH_NATIVE      = $(BUILD)/bench_native

BENCH_NATIVE_OBJS = $(LIBOBJS)

$(BENCH_NATIVE): tools/bench_native.c tools/bench_lane.h tools/spawn_pipe.h $(BENCH_NATIVE_OBJS)
	@mkdir -p $(BUILD)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -o $@ tools/bench_native.c $(BENCH_NATIVE_OBJS) $(LDLIBS)

.PHONY: bench-native
bench-native: $(BENCH_NATIVE)
	CC="$(CC)" $(BENCH_NATIVE) --runs $(BENCH_NATIVE_RUNS)

# `make bench-wasm`: each bench/native/NAME.spx built by the Wasm lane and
# run under node (`node run.mjs program.wasm`, as `run --wasm` starts it) next
# to the native lane's executable (tools/bench_wasm.c): $(BENCH_WASM_RUNS)
# alternating runs, median wall and CPU times, the medians of the pair-by-pair
# wall and CPU ratios and their geometric means (target <= 1.6), the wall
# ratio also with node's fixed cost (an empty module's run) taken off, and
# each module's size beside the stripped executable's.  Programs the Wasm
# lane refuses (W110) are listed as refused.
BENCH_WASM_RUNS ?= 5
BENCH_WASM      = $(BUILD)/bench_wasm

$(BENCH_WASM): tools/bench_wasm.c tools/bench_lane.h tools/spawn_pipe.h $(LIBOBJS)
	@mkdir -p $(BUILD)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -o $@ tools/bench_wasm.c $(LIBOBJS) $(LDLIBS)

.PHONY: bench-wasm
bench-wasm: $(BENCH_WASM)
	CC="$(CC)" $(BENCH_WASM) --runs $(BENCH_WASM_RUNS)

FUZZ_SECONDS ?= 600
FUZZ_CC      ?= clang
FUZZ_SAN      = -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_OBJS    := $(filter src/rt/% src/support/% src/lex/% src/parse/% src/fmt/%,$(SRCS))
FUZZ_OBJS    := $(FUZZ_OBJS:src/%.c=$(BUILD)/fuzz/obj/%.o)
FUZZ_BIN      = $(BUILD)/fuzz/fuzz_frontend

$(BUILD)/fuzz/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WARN) $(CPPFLAGS) $(CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_BIN): tests/fuzz/fuzz_frontend.c $(FUZZ_OBJS)
	$(FUZZ_CC) $(WARN) $(CPPFLAGS) $(CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ \
		tests/fuzz/fuzz_frontend.c $(FUZZ_OBJS) $(LDLIBS)

-include $(FUZZ_OBJS:.o=.d)

fuzz: $(FUZZ_BIN) $(BENCH_GEN)
	@mkdir -p $(BUILD)/fuzz/corpus $(BUILD)/fuzz/findings
	@find tests/fixtures -name '*.spx' | while read -r f; do \
		cp "$$f" "$(BUILD)/fuzz/corpus/seed-$$(echo "$$f" | tr / _)"; done
	$(BENCH_GEN) 400 > $(BUILD)/fuzz/corpus/seed-benchgen-400.spx
	$(FUZZ_BIN) -max_len=65536 -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
		-print_final_stats=1 -artifact_prefix=$(BUILD)/fuzz/findings/ $(BUILD)/fuzz/corpus

# The checker fuzz target: parse → check → lower → validate (see tests/fuzz/fuzz_check.c).
FUZZ_CHECK_OBJS := $(filter src/rt/% src/support/% src/lex/% src/parse/% src/fmt/% src/sema/% src/hir/%,$(SRCS))
FUZZ_CHECK_OBJS := $(FUZZ_CHECK_OBJS:src/%.c=$(BUILD)/fuzz/obj/%.o)
# the checker's generated std function names (T203 help; it failed to link without them)
FUZZ_CHECK_OBJS += $(BUILD)/fuzz/obj/sema/std_names.o
$(BUILD)/fuzz/obj/sema/std_names.o: $(STDN_GEN) src/sema/std_names.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WARN) $(CPPFLAGS) $(CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link -Isrc/sema -c -o $@ $(STDN_GEN)
FUZZ_CHECK_BIN   = $(BUILD)/fuzz/fuzz_check

$(FUZZ_CHECK_BIN): tests/fuzz/fuzz_check.c tests/fuzz/fuzz_front.h $(FUZZ_CHECK_OBJS)
	$(FUZZ_CC) $(WARN) $(CPPFLAGS) $(CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ \
		tests/fuzz/fuzz_check.c $(FUZZ_CHECK_OBJS) $(LDLIBS)

fuzz-check: $(FUZZ_CHECK_BIN)
	@mkdir -p $(BUILD)/fuzz/check-corpus $(BUILD)/fuzz/findings
	@find tests/fixtures/check tests/fixtures/run -name '*.spx' | while read -r f; do \
		cp "$$f" "$(BUILD)/fuzz/check-corpus/seed-$$(echo "$$f" | tr / _)"; done
	@# the kept findings (git-ignored: absent in a fresh clone, then skipped)
	@if [ -d tests/fuzz/corpus ]; then find tests/fuzz/corpus -type f ! -name .keep -exec cp {} $(BUILD)/fuzz/check-corpus/ \; ; fi
	$(FUZZ_CHECK_BIN) -max_len=16384 -max_total_time=$(FUZZ_SECONDS) -timeout=10 $(FUZZ_DICT) \
		-print_final_stats=1 -artifact_prefix=$(BUILD)/fuzz/findings/ $(BUILD)/fuzz/check-corpus

# The manifest reader (see tests/fuzz/fuzz_manifest.c): arbitrary bytes as a
# semaprax.toml; a manifest that reads must render to one that reads and
# renders identically.  Seeded with the suites' manifests.
FUZZ_MANIFEST_OBJS := $(filter src/rt/% src/support/% src/project/manifest%,$(SRCS))
FUZZ_MANIFEST_OBJS := $(FUZZ_MANIFEST_OBJS:src/%.c=$(BUILD)/fuzz/obj/%.o)
FUZZ_MANIFEST_BIN   = $(BUILD)/fuzz/fuzz_manifest

$(FUZZ_MANIFEST_BIN): tests/fuzz/fuzz_manifest.c $(FUZZ_MANIFEST_OBJS)
	$(FUZZ_CC) $(WARN) $(CPPFLAGS) $(CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ \
		tests/fuzz/fuzz_manifest.c $(FUZZ_MANIFEST_OBJS) $(LDLIBS)

fuzz-manifest: $(FUZZ_MANIFEST_BIN)
	@mkdir -p $(BUILD)/fuzz/manifest-corpus $(BUILD)/fuzz/findings
	@find tests examples -name 'semaprax.toml' | while read -r f; do \
		cp "$$f" "$(BUILD)/fuzz/manifest-corpus/seed-$$(echo "$$f" | tr / _)"; done
	$(FUZZ_MANIFEST_BIN) -max_len=70000 -max_total_time=$(FUZZ_SECONDS) -timeout=10 -dict=tests/fuzz/manifest.dict \
		-print_final_stats=1 -artifact_prefix=$(BUILD)/fuzz/findings/ $(BUILD)/fuzz/manifest-corpus

# The back half (see tests/fuzz/fuzz_run.c): check → lower → interpret (50,000
# steps, a 4 MiB value heap, no host effects) → mono → emit C and Wasm in
# memory, the Wasm module validated by tests/fuzz/wasm_valid.c.  Seeded with
# the fixtures that check clean, 40 random programs (tools/progen.c; see
# tests/fuzz/seed.sh) and the findings kept in
# tests/fuzz/corpus/; tests/fuzz/spx.dict is the dictionary (both targets).
# Coverage only from the back half (hir, interp, emit_c, emit_wasm, driver):
# the front end, support and rt (the lexer uses it) are built without it, so
# libFuzzer keeps an input only for new behaviour after the checker (clang
# 14's libFuzzer ignores the target's -1 for inputs that do not check clean).
FUZZ_RUN_BACK := $(filter src/hir/% src/interp/% src/emit_c/% src/emit_wasm/% src/driver/route.c,$(SRCS))
FUZZ_RUN_FRONT := $(filter src/rt/% src/support/% src/lex/% src/parse/% src/fmt/% src/sema/%,$(SRCS))
FUZZ_RUN_OBJS := $(FUZZ_RUN_BACK:src/%.c=$(BUILD)/fuzz/obj/%.o) $(FUZZ_RUN_FRONT:src/%.c=$(BUILD)/fuzz/obj-nocov/%.o) $(BUILD)/fuzz/obj/sema/std_names.o
FUZZ_RUN_BIN   = $(BUILD)/fuzz/fuzz_run
FUZZ_DICT      = -dict=tests/fuzz/spx.dict

$(BUILD)/fuzz/obj-nocov/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WARN) $(CPPFLAGS) $(CFLAGS) $(FUZZ_SAN) -c -o $@ $<

# the value heap limit only matters to src/interp (value.h)
$(BUILD)/fuzz/obj/interp/%.o: src/interp/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WARN) $(CPPFLAGS) $(CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link '-DVALUE_HEAP_LIMIT=((size_t)4 << 20)' -c -o $@ $<

$(FUZZ_RUN_BIN): tests/fuzz/fuzz_run.c tests/fuzz/fuzz_front.h tests/fuzz/wasm_valid.c tests/fuzz/wasm_valid.h $(FUZZ_RUN_OBJS) $(RT_OBJ) $(WASM_OBJ)
	$(FUZZ_CC) $(WARN) $(CPPFLAGS) $(CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ \
		tests/fuzz/fuzz_run.c tests/fuzz/wasm_valid.c $(FUZZ_RUN_OBJS) $(RT_OBJ) $(WASM_OBJ) $(LDLIBS)

-include $(FUZZ_RUN_OBJS:.o=.d)

fuzz-run: $(FUZZ_RUN_BIN) $(BIN) $(PROGEN)
	@mkdir -p $(BUILD)/fuzz/run-corpus $(BUILD)/fuzz/findings
	@sh tests/fuzz/seed.sh $(BIN) $(BUILD)/fuzz/run-corpus $(PROGEN)
	$(FUZZ_RUN_BIN) -max_len=16384 -max_total_time=$(FUZZ_SECONDS) -timeout=10 $(FUZZ_DICT) \
		-print_final_stats=1 -artifact_prefix=$(BUILD)/fuzz/findings/ $(BUILD)/fuzz/run-corpus
