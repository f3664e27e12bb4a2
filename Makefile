# polyhoop — build, run, test.
#   make                         build ./polyhoop with params/default.h
#   make PARAMS=params/x.h       build with another parameter header
#   make run                     build and run the default simulation into outputs/
#   make test                    build and run the tests (last line: "N passed, N failed")
#   make WERROR=1 ...            treat compiler warnings as errors (CI does)
CC       = gcc
PARAMS  ?= params/default.h
OPT     ?= -O3
CFLAGS   = -std=c11 $(OPT) -fopenmp -Wall -Wextra -Wpedantic $(if $(WERROR),-Werror) $(EXTRA_CFLAGS)
CPPFLAGS = -Isrc -iquote . -DPH_PARAMS_FILE='"$(PARAMS)"'
LDLIBS   = -lz -lm
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)

SRC   = $(wildcard src/*.c)
OBJ   = $(SRC:src/%.c=build/%.o)
TESTS = $(wildcard tests/test_*.c)

all: polyhoop

# Stop early, with the exact install line, when a system package is missing.
build/deps.ok:
	@command -v $(CC) >/dev/null || { echo "polyhoop needs gcc: apt-get install -y gcc make"; exit 1; }
	@echo '#include <zlib.h>' | $(CC) -E -x c - >/dev/null 2>&1 || { echo "polyhoop needs zlib: apt-get install -y zlib1g-dev"; exit 1; }
	@echo 'int main(void){return 0;}' | $(CC) -fopenmp -x c - -o /dev/null 2>/dev/null || { echo "polyhoop needs OpenMP (libgomp): apt-get install -y gcc"; exit 1; }
	@mkdir -p build && touch $@

# Rebuild everything when the flags or the parameter header change.
build/flags: FORCE | build/deps.ok
	@echo '$(CC) $(CFLAGS) $(CPPFLAGS)' | cmp -s - $@ || echo '$(CC) $(CFLAGS) $(CPPFLAGS)' > $@
build/version: FORCE | build/deps.ok
	@echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' > $@

build/%.o: src/%.c $(wildcard src/*.h) build/flags
	$(CC) $(CFLAGS) $(CPPFLAGS) -c $< -o $@
build/params.o: $(PARAMS)
build/polyhoop.o: polyhoop.c $(wildcard src/*.h) build/flags build/version
	$(CC) $(CFLAGS) $(CPPFLAGS) -DPH_VERSION='"$(VERSION)"' -c $< -o $@

polyhoop: $(OBJ) build/polyhoop.o
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

run: polyhoop
	./polyhoop -o outputs

# The test runner links every module (not polyhoop.c, which holds main only) and runs every
# test; some tests run ./polyhoop itself.
build/test_%.o: tests/test_%.c tests/harness.h $(wildcard src/*.h) build/flags
	$(CC) $(CFLAGS) $(CPPFLAGS) -Itests -c $< -o $@
build/run_tests.o: tests/run_tests.c tests/harness.h $(wildcard tests/*.def) build/flags
	$(CC) $(CFLAGS) $(CPPFLAGS) -Itests -c $< -o $@
tests/run_tests: $(OBJ) $(TESTS:tests/%.c=build/%.o) build/run_tests.o
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

# a program built with a time step far too large, for the blow-up test
tests/polyhoop_unstable: $(SRC) polyhoop.c $(wildcard src/*.h) tests/params_unstable.h build/flags
	$(CC) $(CFLAGS) -Isrc -iquote . -DPH_PARAMS_FILE='"tests/params_unstable.h"' -DPH_VERSION='"$(VERSION)"' $(SRC) polyhoop.c -o $@ $(LDLIBS)

test: polyhoop tests/run_tests tests/polyhoop_unstable
	./tests/run_tests $(FILTER)

# benchmarks of issue 6 (several minutes): bench/results.csv and a table
bench:
	scripts/bench.sh $(REPEATS)

clean:
	rm -rf build build-bench polyhoop tests/run_tests tests/polyhoop_unstable

.PHONY: all run test bench clean FORCE

# ---- make check: the tests and the showcases again under AddressSanitizer + UBSan ----------------
# Everything is built anew into build-check/ (./polyhoop-check, tests/run_tests-check, ...). The
# tests run ./polyhoop and ./tests/polyhoop_unstable by those names, so they run from
# build-check/tree/, where those names point at the sanitized builds. ASan and LSan reports go to
# files in build-check/reports/ (a child's report would otherwise vanish with its test's temp
# folder); UBSan's go to stderr (gcc's libubsan ignores log_path when ASan is linked too), so each
# test's and each run's output is kept in build-check/runs/ and searched for reports; a program
# stopped by UBSan exits with status 1, which fails the test that ran it. Any report, failed test
# or failed run ends with "make check: FAILED ..." and a non-zero status. LSan reports nothing of
# libgomp's (its thread pool stays reachable), so no suppression file is needed.
#   make check                       all tests (FILTER=name: only those whose name contains it)
#   make check CHECK_SKIP="a b"      all but tests a and b
CHECK_OPT   = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
CHECK_FLAGS = -std=c11 $(CHECK_OPT) -fopenmp -Wall -Wextra -Wpedantic $(if $(WERROR),-Werror) $(EXTRA_CFLAGS)
CHECK_OBJ   = $(SRC:src/%.c=build-check/%.o)
CHECK_ENV   = ASAN_OPTIONS=detect_leaks=1:log_path=$(CURDIR)/build-check/reports/asan \
              UBSAN_OPTIONS=print_stacktrace=1
# tests to leave out, e.g. CHECK_SKIP=test_sim_default_run_thread_independent (the slowest: about
# 2 minutes under the sanitizers on an idle machine)
CHECK_SKIP ?=

build-check/flags: FORCE | build/deps.ok
	@mkdir -p build-check
	@echo '$(CC) $(CHECK_FLAGS) $(CPPFLAGS)' | cmp -s - $@ || echo '$(CC) $(CHECK_FLAGS) $(CPPFLAGS)' > $@
build-check/%.o: src/%.c $(wildcard src/*.h) build-check/flags
	$(CC) $(CHECK_FLAGS) $(CPPFLAGS) -c $< -o $@
build-check/test_%.o: tests/test_%.c tests/harness.h $(wildcard src/*.h) $(wildcard tests/*.h) build-check/flags
	$(CC) $(CHECK_FLAGS) $(CPPFLAGS) -Itests -c $< -o $@
build-check/run_tests.o: tests/run_tests.c tests/harness.h $(wildcard tests/*.def) build-check/flags
	$(CC) $(CHECK_FLAGS) $(CPPFLAGS) -Itests -c $< -o $@
build-check/polyhoop.o: polyhoop.c $(wildcard src/*.h) build-check/flags build/version
	$(CC) $(CHECK_FLAGS) $(CPPFLAGS) -DPH_VERSION='"$(VERSION)"' -c $< -o $@
polyhoop-check: $(CHECK_OBJ) build-check/polyhoop.o
	$(CC) $(CHECK_FLAGS) $^ -o $@ $(LDLIBS)
tests/run_tests-check: $(CHECK_OBJ) $(TESTS:tests/%.c=build-check/%.o) build-check/run_tests.o
	$(CC) $(CHECK_FLAGS) $^ -o $@ $(LDLIBS)
# the programs of other parameter headers, each in one compiler call like tests/polyhoop_unstable
polyhoop-check-%: params/%.h $(SRC) polyhoop.c $(wildcard src/*.h) build-check/flags
	$(CC) $(CHECK_FLAGS) -Isrc -iquote . -DPH_PARAMS_FILE='"$<"' -DPH_VERSION='"$(VERSION)"' $(SRC) polyhoop.c -o $@ $(LDLIBS)
tests/polyhoop_unstable-check: $(SRC) polyhoop.c $(wildcard src/*.h) tests/params_unstable.h build-check/flags
	$(CC) $(CHECK_FLAGS) -Isrc -iquote . -DPH_PARAMS_FILE='"tests/params_unstable.h"' -DPH_VERSION='"$(VERSION)"' $(SRC) polyhoop.c -o $@ $(LDLIBS)
# the tests' view of the repository: the sanitized programs under the names the tests call
build-check/tree: FORCE | build-check/flags
	@mkdir -p $@/tests
	@for f in inputs params scripts; do ln -sfn ../../$$f $@/$$f; done
	@for f in tests/*.py tests/*.h; do ln -sfn ../../../$$f $@/$$f; done
	@ln -sfn ../../polyhoop-check $@/polyhoop
	@ln -sfn ../../../tests/run_tests-check $@/tests/run_tests
	@ln -sfn ../../../tests/polyhoop_unstable-check $@/tests/polyhoop_unstable

check: polyhoop-check tests/run_tests-check tests/polyhoop_unstable-check polyhoop-check-emulsion polyhoop-check-hourglass build-check/tree
	@rm -rf build-check/reports build-check/runs && mkdir -p build-check/reports build-check/runs && touch build-check/runs/summary
	@fail=""; \
	echo "== tests under ASan+UBSan$(if $(strip $(CHECK_SKIP)), (left out: $(strip $(CHECK_SKIP))))"; \
	for t in $$(sed -n 's/^TEST(\(.*\))$$/\1/p' tests/*_tests.def); do \
	    case " $(CHECK_SKIP) " in *" $$t "*) continue;; esac; \
	    case "$$t" in *"$(FILTER)"*) ;; *) continue;; esac; \
	    ( cd build-check/tree && $(CHECK_ENV) ./tests/run_tests $$t ) > build-check/runs/$$t.log 2>&1; \
	    st=$$?; grep -E '^(ok|FAIL|skip) ' build-check/runs/$$t.log | tee -a build-check/runs/summary; \
	    [ $$st = 0 ] || { fail="$$fail $$t"; grep -q '^FAIL ' build-check/runs/$$t.log || \
	                      echo "FAIL $$t (exit status $$st)" | tee -a build-check/runs/summary; \
	                      grep -v -E '^(ok|skip|FAIL) |passed, .* failed' build-check/runs/$$t.log | tail -n 30; }; \
	done; \
	echo "== showcases under ASan+UBSan"; \
	for run in "polyhoop-check -q -n 3 -s 200" \
	           "polyhoop-check-emulsion -q -n 2 -s 100 --check inputs/emulsion.off" \
	           "polyhoop-check-hourglass -q -n 2 -s 100 --check inputs/hourglass.off"; do \
	    set -- $$run; out=build-check/runs/$$1; rm -rf $$out; \
	    if $(CHECK_ENV) ./$$run -o $$out > $$out.log 2>&1; then echo "ok   $$run" | tee -a build-check/runs/summary; \
	    else echo "FAIL $$run (see $$out.log)" | tee -a build-check/runs/summary; tail -n 20 $$out.log; fail="$$fail $$1"; fi; \
	done; \
	n=$$(ls build-check/reports | wc -l); \
	if [ $$n -gt 0 ]; then for r in build-check/reports/*; do echo "== $$r"; head -n 40 $$r; done; fi; \
	u=$$(cat build-check/runs/*.log | grep -c -E 'runtime error:|ERROR: (Address|Leak)Sanitizer'); \
	if [ $$u -gt 0 ]; then echo "== sanitizer reports in the logs of build-check/runs/:"; \
	    grep -h -E -A 3 'runtime error:|ERROR: (Address|Leak)Sanitizer' build-check/runs/*.log | head -n 60; fi; \
	[ $$((n + u)) = 0 ] || fail="$$fail sanitizer-reports($$((n + u)))"; \
	echo "check: $$(grep -c '^ok' build-check/runs/summary) passed, $$(grep -c '^FAIL' build-check/runs/summary) failed, $$(grep -c '^skip' build-check/runs/summary) skipped"; \
	if [ -n "$$fail" ]; then echo "make check: FAILED:$$fail"; exit 1; fi; \
	echo "make check: passed under ASan+UBSan (tests and 3 showcases; no sanitizer report)"

clean-check:
	rm -rf build-check polyhoop-check polyhoop-check-* tests/run_tests-check tests/polyhoop_unstable-check

.PHONY: check clean-check

# a short default run under valgrind's memcheck (scripts/valgrind_check.sh; build in build-valgrind/)
valgrind:
	scripts/valgrind_check.sh

.PHONY: valgrind

# ---- make fuzz: libFuzzer on the OFF reader (tests/fuzz_off.c), FUZZ_SECONDS long -------------
# The seeds of tests/corpus_off/ are copied into build-fuzz/corpus/, where the fuzzer adds what it
# finds (the seed folder is never written); a crash or leak is saved as build-fuzz/crash-* etc.
# Reproduce one with: build-fuzz/fuzz_off build-fuzz/crash-...
FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_FLAGS    = -std=c11 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -Wall -Wextra

build-fuzz/fuzz_off: tests/fuzz_off.c src/off.c src/off.h
	@mkdir -p build-fuzz
	@command -v $(FUZZ_CC) > /dev/null || { echo "make fuzz needs clang: apt-get install -y clang"; exit 1; }
	@echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return d && n; }' | \
	    $(FUZZ_CC) -fsanitize=fuzzer -x c - -o build-fuzz/probe 2> /dev/null || \
	    { echo "make fuzz needs clang's libFuzzer runtime: apt-get install -y libclang-rt-$$($(FUZZ_CC) -dumpversion | cut -d. -f1)-dev"; exit 1; }
	$(FUZZ_CC) $(FUZZ_FLAGS) -Isrc tests/fuzz_off.c src/off.c -o $@ -lm

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
