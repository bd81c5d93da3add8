# Thin wrapper over CMake so people type short commands.
#   make deps   install missing Debian packages (as root), else print the command
#   make        build (Debug-ish RelWithDebInfo) into $(BUILD)
#   make run    build and run the bundled default scenario
#   make test   build and run every test
#   make bench  build in Release and print the benchmark figures
#   make asan   build with ASan+UBSan into build-asan and run the tests
#   make install PREFIX=/usr/local [DESTDIR=...]   build and cmake --install
#   make fuzz   build the libFuzzer harnesses of fuzz/ with clang into build-fuzz
#   make fuzz-run [FUZZ_RUNS=N FUZZ_SECONDS=S]   run each (docs/security.md)
BUILD ?= build
CMAKE_FLAGS ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
DEPS_PKGS = build-essential cmake pkg-config libgsl-dev libyaml-dev libcjson-dev zlib1g-dev check gnuplot-nox python3
# Only for the optional checks CI also runs: the HTML report rendered in
# headless Chromium, and the MPI sweep build (make deps-extra).
EXTRA_PKGS = chromium libopenmpi-dev openmpi-bin
# For make fuzz: Debian's clang and its runtime with libFuzzer and the
# sanitizers (a Recommends of clang, so named here).
FUZZ_PKGS = clang libclang-rt-14-dev
FUZZ_BUILD ?= build-fuzz
FUZZ_RUNS ?= 20000
FUZZ_SECONDS ?= 15
SCENARIO ?= scenarios/default.yaml
PREFIX ?= /usr/local

.PHONY: all deps deps-extra deps-fuzz build run test bench asan fuzz fuzz-run install clean

all: build

deps:
	@missing=""; \
	for p in $(DEPS_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "make deps: installing$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	else \
	  echo "make deps: missing Debian packages:$$missing"; \
	  echo "run: sudo apt-get install -y$$missing"; \
	  exit 1; \
	fi

deps-extra: deps
	@$(MAKE) --no-print-directory deps DEPS_PKGS="$(EXTRA_PKGS)"

deps-fuzz: deps
	@$(MAKE) --no-print-directory deps DEPS_PKGS="$(FUZZ_PKGS)"

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)

build: deps
	@if [ ! -f $(BUILD)/CMakeCache.txt ] || [ -n "$(CMAKE_FLAGS)" ]; then cmake -S . -B $(BUILD) $(CMAKE_FLAGS); fi
	cmake --build $(BUILD) -j $(JOBS)

run: build
	./$(BUILD)/clustersim run $(SCENARIO)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

bench: deps
	cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release
	cmake --build build-release -j $(JOBS)
	bash bench/run.sh build-release

asan:
	$(MAKE) test BUILD=build-asan CMAKE_FLAGS="-DCLUSTERSIM_ASAN=ON -DCLUSTERSIM_UBSAN=ON"

# Every object with coverage feedback, ASan and UBSan (CMakeLists.txt,
# CLUSTERSIM_FUZZ); only the harnesses are built.
fuzz: deps-fuzz
	cmake -S . -B $(FUZZ_BUILD) -DCMAKE_C_COMPILER=clang -DCLUSTERSIM_FUZZ=ON -DCLUSTERSIM_TESTS=OFF \
	  -DCMAKE_BUILD_TYPE=Debug
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzzers

fuzz-run: fuzz
	bash fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_RUNS) $(FUZZ_SECONDS)

# Configures $(BUILD) for PREFIX (the compiled-in data directory and the man
# page's FILES name it; an installed copy moved elsewhere still finds its data
# beside its bin/), builds what is installed (the Python package's
# libclustersim.so too, unless -DCLUSTERSIM_SHARED=OFF), and installs under
# $(DESTDIR)$(PREFIX). No `make deps` here: install often runs as root.
install:
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS) -DCMAKE_INSTALL_PREFIX=$(PREFIX)
	cmake --build $(BUILD) -j $(JOBS) --target clustersim clustersim_docs \
	  $$(grep -q '^CLUSTERSIM_SHARED:BOOL=OFF' $(BUILD)/CMakeCache.txt || echo clustersim_shared)
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf build build-release build-asan build-fuzz fuzz-out
