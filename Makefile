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

# The test runner links every module and polyhoop.c (its main renamed) and runs every test;
# some tests run ./polyhoop itself.
build/test_%.o: tests/test_%.c tests/harness.h $(wildcard src/*.h) build/flags
	$(CC) $(CFLAGS) $(CPPFLAGS) -Itests -c $< -o $@
build/run_tests.o: tests/run_tests.c tests/harness.h $(wildcard tests/*.def) build/flags
	$(CC) $(CFLAGS) $(CPPFLAGS) -Itests -c $< -o $@
build/polyhoop_lib.o: polyhoop.c $(wildcard src/*.h) build/flags build/version
	$(CC) $(CFLAGS) $(CPPFLAGS) -DPH_VERSION='"$(VERSION)"' -Dmain=polyhoop_main -c $< -o $@
tests/run_tests: $(OBJ) build/polyhoop_lib.o $(TESTS:tests/%.c=build/%.o) build/run_tests.o
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

# a program built with a time step far too large, for the blow-up test
tests/polyhoop_unstable: $(SRC) polyhoop.c $(wildcard src/*.h) tests/params_unstable.h build/flags
	$(CC) $(CFLAGS) -Isrc -iquote . -DPH_PARAMS_FILE='"tests/params_unstable.h"' -DPH_VERSION='"$(VERSION)"' $(SRC) polyhoop.c -o $@ $(LDLIBS)

test: polyhoop tests/run_tests tests/polyhoop_unstable
	./tests/run_tests $(FILTER)

clean:
	rm -rf build polyhoop tests/run_tests tests/polyhoop_unstable

.PHONY: all run test clean FORCE
