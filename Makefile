# polyhoop — build, run, test.
#   make                         build ./polyhoop with params/default.h
#   make PARAMS=params/x.h       build with another parameter header
#   make run                     build and run the default simulation into outputs/
#   make test                    build and run the tests (last line: "N passed, N failed")
#   make WERROR=1 ...            treat compiler warnings as errors (CI does)
#   make PORTABLE=1 ...          a build for any x86-64 processor (default: tuned for this one)
CC       = gcc
PARAMS  ?= params/default.h
OPT     ?= -O3
# tuned for this machine's processor (AVX2, FMA, ...) unless PORTABLE=1; -ffp-contract=off keeps
# every a * b + c rounded twice, so that a tuned and a portable build give the same bits
ARCH    ?= $(if $(PORTABLE),,-march=native)
B       ?= build
CFLAGS   = -std=c11 $(OPT) $(ARCH) -ffp-contract=off -fopenmp -Wall -Wextra -Wpedantic $(if $(WERROR),-Werror) $(EXTRA_CFLAGS)
CPPFLAGS = -Isrc -iquote . -DPH_PARAMS_FILE='"$(PARAMS)"' -DPH_ARCH='"$(or $(ARCH),portable)"'
LDLIBS   = -lz -lm
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
CHECK_OPT = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

ifeq ($(wildcard $(PARAMS)),)
$(error PARAMS=$(PARAMS): no such file (the parameter headers are in params/: $(notdir $(wildcard params/*.h))))
endif

SRC   = $(wildcard src/*.c)
HDR   = $(wildcard src/*.h)
TESTS = $(wildcard tests/test_*.c)

all: polyhoop

# Stop early, with the exact install line, when a system package is missing.
build/deps.ok:
	@command -v $(CC) >/dev/null || { echo "polyhoop needs gcc: apt-get install -y gcc make"; exit 1; }
	@echo '#include <zlib.h>' | $(CC) -E -x c - >/dev/null 2>&1 || { echo "polyhoop needs zlib: apt-get install -y zlib1g-dev"; exit 1; }
	@echo 'int main(void){return 0;}' | $(CC) -fopenmp -x c - -o /dev/null 2>/dev/null || { echo "polyhoop needs OpenMP (libgomp): apt-get install -y gcc"; exit 1; }
	@mkdir -p build && touch $@

# ---- the one compile rule: every build (the program, the tests, sanitized, benchmark and
# valgrind builds, other parameter headers) is this set of rules with another build folder B,
# optimisation OPT and parameter header PARAMS, e.g.
#   make B=build/foam PARAMS=params/foam.h build/foam/polyhoop
# Everything in B is rebuilt when its flags change, main.o when the revision or the repository folder (the default input's) does.
$(B)/flags: FORCE | build/deps.ok
	@mkdir -p $(B)
	@echo '$(CC) $(CFLAGS) $(CPPFLAGS)' | cmp -s - $@ || echo '$(CC) $(CFLAGS) $(CPPFLAGS)' > $@
$(B)/version: FORCE | $(B)/flags
	@echo '$(VERSION) $(CURDIR)' | cmp -s - $@ || echo '$(VERSION) $(CURDIR)' > $@
$(B)/%.o: src/%.c $(HDR) $(B)/flags | $(B)/params.ok
	$(CC) $(CFLAGS) $(CPPFLAGS) -c $< -o $@
# (a P_ name the program does not know stops the build: scripts/check_params.sh)
$(B)/params.o: $(PARAMS) $(B)/params.ok
# (and the headers that the header includes, found by the compiler, are its prerequisites too:
# a header built on another, such as params/hex_packing.h on params/hex.h, rebuilds with it)
$(B)/params.ok: $(PARAMS) $(B)/flags src/params.c params/default.h scripts/check_params.sh
	@scripts/check_params.sh '$(CC)' '$(PARAMS)' && $(CC) $(CPPFLAGS) -MM -MP -MT $@ src/params.c > $(B)/params.d && touch $@
-include $(B)/params.d
# the digest of the header's rules (scripts/rules_digest.sh: its preprocessed text, so its rule
# functions' too), which checkpoints record so that a restart by a build of other rules is
# refused: made anew with params.ok, rewritten only when it changes, compiled into checkpoint.o
$(B)/rules: $(B)/params.ok scripts/rules_digest.sh
	@scripts/rules_digest.sh '$(CC)' '$(PARAMS)' $(CFLAGS) $(CPPFLAGS) > $@.tmp && \
	    { cmp -s $@.tmp $@ && rm -f $@.tmp || mv -f $@.tmp $@; }
$(B)/checkpoint.o: $(B)/rules
$(B)/checkpoint.o: private CPPFLAGS += -DPH_RULES_DIGEST='"$(shell cat $(B)/rules)"'
$(B)/main.o: polyhoop.c $(HDR) $(B)/flags $(B)/version
	$(CC) $(CFLAGS) $(CPPFLAGS) -DPH_VERSION='"$(VERSION)"' -DPH_REPO='"$(CURDIR)"' -c $< -o $@
$(B)/polyhoop: $(SRC:src/%.c=$(B)/%.o) $(B)/main.o
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)
# the test runner links every module (not polyhoop.c, which holds main only)
$(B)/test_%.o: tests/test_%.c $(wildcard tests/*.h) $(HDR) $(B)/flags
	$(CC) $(CFLAGS) $(CPPFLAGS) -Itests -c $< -o $@
$(B)/run_tests.o: tests/run_tests.c tests/harness.h $(wildcard tests/*.def) $(B)/flags
	$(CC) $(CFLAGS) $(CPPFLAGS) -Itests -c $< -o $@
# (linked so that the tests can count the modules' allocations: test_alloc.c)
$(B)/run_tests: $(SRC:src/%.c=$(B)/%.o) $(TESTS:tests/%.c=$(B)/%.o) $(B)/run_tests.o
	$(CC) $(CFLAGS) $^ -o $@ -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc $(LDLIBS)

# the program at its usual name; the tests' own programs and runner (built from params/default.h
# into build/test/ whatever PARAMS is, so that make test leaves ./polyhoop as it was built), a
# build with a time step far too large, for the blow-up test, and one with noise, activity and
# random division and death, for reproducibility (sub-makes named by $(MAKE) itself, so that they
# share the jobs of make -j)
polyhoop: build/polyhoop
	@cp $< $@.tmp && mv -f $@.tmp $@
tests/polyhoop tests/run_tests: FORCE
	@$(MAKE) --no-print-directory B=build/test PARAMS=params/default.h build/test/$(@F)
	@cmp -s build/test/$(@F) $@ || { cp build/test/$(@F) $@.tmp && mv -f $@.tmp $@; }
tests/polyhoop_unstable: FORCE
	@$(MAKE) --no-print-directory B=build/unstable PARAMS=tests/params_unstable.h build/unstable/polyhoop
	@cmp -s build/unstable/polyhoop $@ || { cp build/unstable/polyhoop $@.tmp && mv -f $@.tmp $@; }
tests/polyhoop_noise: FORCE
	@$(MAKE) --no-print-directory B=build/noise PARAMS=tests/params_noise.h build/noise/polyhoop
	@cmp -s build/noise/polyhoop $@ || { cp build/noise/polyhoop $@.tmp && mv -f $@.tmp $@; }

run: polyhoop
	./polyhoop --overwrite -o outputs

# the C tests, then the command-line tests of tests/cli/ (tests/run.sh), which run tests/polyhoop,
# tests/polyhoop_unstable and tests/polyhoop_noise themselves; FILTER=name: only those.
# make test leaves out the slow tests of tests/slow.list (showcases, other builds, long runs);
# make test-full runs every test (CI does).
test: tests/polyhoop tests/polyhoop tests/run_tests tests/polyhoop_unstable tests/polyhoop_noise
	@tests/run.sh $(FILTER)

test-full: tests/polyhoop tests/polyhoop tests/run_tests tests/polyhoop_unstable tests/polyhoop_noise
	@PH_TEST_ALL=1 tests/run.sh $(FILTER)

# a showcase of the paper into outputs/NAME/ (scripts/showcase.sh), QUICK=1 for 10 frames. NAME is
# taken as text, never expanded or run by a shell, and must be one of scripts/showcase.sh --list.
showcase:
	$(if $(filter-out 1,$(words $(value NAME)))$(filter-out $(shell scripts/showcase.sh --list),$(value NAME)),$(error make showcase: NAME='$(value NAME)' is not a showcase; NAME is one of: $(shell scripts/showcase.sh --list)))
	@scripts/showcase.sh '$(value NAME)' $(if $(value QUICK),--quick)

# benchmarks (several minutes): bench/results.csv and a table
bench:
	scripts/bench.sh $(REPEATS)

# the tests and three showcases under AddressSanitizer + UBSan (scripts/check.sh): everything
# built anew into build-check/ with CHECK_OPT
#   make check                       all tests (FILTER=name: only those whose name contains it)
#   make check CHECK_SKIP="a b"      all but tests a and b
#   make check CHECK_JOBS=n          n tests at a time (default: the cores, at most 4)
check:
	@$(MAKE) --no-print-directory B=build-check OPT='$(CHECK_OPT)' PARAMS=params/default.h build-check/polyhoop build-check/run_tests
	@$(MAKE) --no-print-directory B=build-check/unstable OPT='$(CHECK_OPT)' PARAMS=tests/params_unstable.h build-check/unstable/polyhoop
	@$(MAKE) --no-print-directory B=build-check/noise OPT='$(CHECK_OPT)' PARAMS=tests/params_noise.h build-check/noise/polyhoop
	@$(MAKE) --no-print-directory B=build-check/emulsion OPT='$(CHECK_OPT)' PARAMS=params/emulsion.h build-check/emulsion/polyhoop
	@$(MAKE) --no-print-directory B=build-check/hourglass OPT='$(CHECK_OPT)' PARAMS=params/hourglass.h build-check/hourglass/polyhoop
	+@CHECK_SKIP='$(CHECK_SKIP)' CHECK_JOBS='$(CHECK_JOBS)' FILTER='$(FILTER)' scripts/check.sh

# a short default run and its restart under valgrind's memcheck (scripts/valgrind_check.sh)
valgrind:
	scripts/valgrind_check.sh

clean:
	rm -rf build build-bench build-check build-compare build-valgrind polyhoop tests/polyhoop tests/run_tests tests/polyhoop_unstable tests/polyhoop_noise

.PHONY: all run test test-full showcase bench check valgrind clean FORCE

# ---- make fuzz: libFuzzer on the OFF reader (tests/fuzz_off.c), FUZZ_SECONDS long -------------
# The seeds of tests/corpus_off/ are copied into build-fuzz/corpus/, where the fuzzer adds what it
# finds (the seed folder is never written); a crash or leak is saved as build-fuzz/crash-* etc.
# Reproduce one with: build-fuzz/fuzz_off build-fuzz/crash-...
FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_FLAGS    = -std=c11 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -Wall -Wextra

build-fuzz/fuzz_off: tests/fuzz_off.c src/off.c src/off.h src/text.c src/text.h
	@mkdir -p build-fuzz
	@command -v $(FUZZ_CC) > /dev/null || { echo "make fuzz needs clang: apt-get install -y clang"; exit 1; }
	@echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return d && n; }' | \
	    $(FUZZ_CC) -fsanitize=fuzzer -x c - -o build-fuzz/probe 2> /dev/null || \
	    { echo "make fuzz needs clang's libFuzzer runtime: apt-get install -y libclang-rt-$$($(FUZZ_CC) -dumpversion | cut -d. -f1)-dev"; exit 1; }
	$(FUZZ_CC) $(FUZZ_FLAGS) -Isrc tests/fuzz_off.c src/off.c src/text.c -o $@ -lm

fuzz: build-fuzz/fuzz_off
	@mkdir -p build-fuzz/corpus && cp tests/corpus_off/* build-fuzz/corpus/
	@printf '%s\n' '"OFF"' '"#"' '"\x0d\x0a"' '"\x0a"' '"\x09"' '"nan"' '"inf"' '"-"' '"e"' '"E+"' '"."' \
	    '"0x"' '"p"' '"3 0 1 2"' '"4 1 0"' '"0 0 0"' '"1 0 1"' '"1e308"' '"2147483648"' '"9223372036854775808"' > build-fuzz/off.dict
	@echo "make fuzz: fuzzing off_read for $(FUZZ_SECONDS) s (log: build-fuzz/fuzz.log)"
	@cd build-fuzz && st=0; \
	./fuzz_off -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -dict=off.dict -close_fd_mask=2 -print_final_stats=1 \
	    -artifact_prefix=./ corpus > fuzz.log 2>&1 || st=$$?; \
	grep -E '^(Done|stat::number_of_executed_units|stat::peak_rss_mb)|^#[0-9]+.*DONE' fuzz.log; \
	if [ $$st -ne 0 ]; then grep -E -A 30 '^==[0-9]+==ERROR|runtime error|broken promise|Test unit written' fuzz.log | head -n 60; \
	    echo "make fuzz: FAILED (exit status $$st): see build-fuzz/fuzz.log; the input is build-fuzz/$$(ls -t crash-* leak-* oom-* timeout-* 2> /dev/null | head -n 1)"; exit 1; fi; \
	echo "make fuzz: no crash, leak or broken promise in $$(sed -n 's/^stat::number_of_executed_units: *//p' fuzz.log) runs"

clean-fuzz:
	rm -rf build-fuzz

.PHONY: fuzz clean-fuzz
