# SEMAPRAX — C11 toolchain.  POSIX make; `make help` lists the targets.

CC      ?= cc
CFLAGS  ?= -O2 -g
WARN     = -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Wmissing-declarations -Wpointer-arith -Wvla
CPPFLAGS = -D_POSIX_C_SOURCE=200809L -MMD -MP
LDLIBS   = -lm

BUILD   ?= build
SRCS    := $(sort $(wildcard src/*/*.c))
OBJS    := $(SRCS:src/%.c=$(BUILD)/obj/%.o)
LIBOBJS := $(filter-out $(BUILD)/obj/cli/%,$(OBJS))
BIN      = $(BUILD)/semaprax
RUNNER   = $(BUILD)/spx-test

.PHONY: all test test-sanitize bless bench fuzz docs lint clean help

all: $(BIN)

$(BIN): $(OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(RUNNER): tests/runner/runner.c
	@mkdir -p $(BUILD)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -o $@ tests/runner/runner.c

-include $(OBJS:.o=.d)

help:
	@echo "make            build $(BIN)"
	@echo "make test       fixture suite, docs staleness check, unit tests"
	@echo "make test-sanitize   the fixture suite under ASan+UBSan"
	@echo "make bless      rewrite snapshot files (never markers)"
	@echo "make bench      front-end throughput and memory"
	@echo "make fuzz       libFuzzer over lex/parse/fmt (FUZZ_SECONDS=600)"
	@echo "make docs       regenerate docs/diagnostics.md"

clean:
	rm -rf $(BUILD) build-*
