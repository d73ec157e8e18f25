# wundercast — the two commands a newcomer needs:
#   make demo   install what it needs, build, replay a real GPS track, watch the weather follow it
#   make test   install what it needs, build with warnings as errors, run every test
SHELL := /bin/bash
SWIFT ?= swift
DEBIAN_PACKAGES := libgps-dev libcurl4-openssl-dev libsystemd-dev gpsd gpsd-clients python3-gps socat systemd
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
DEMO_SECONDS ?= 120

.PHONY: demo test deps build bench clean

deps:
	@missing=$$(for p in $(DEBIAN_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:" $$missing; \
	  $(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends $$missing; \
	fi

build: deps
	$(SWIFT) build -Xswiftc -warnings-as-errors

demo: build
	DEMO_SECONDS=$(DEMO_SECONDS) bash Tests/Tools/demo.sh

test: deps
	$(SWIFT) build --build-tests -Xswiftc -warnings-as-errors
	$(SWIFT) test --skip-build --no-parallel

bench: deps
	$(SWIFT) build -c release -Xswiftc -warnings-as-errors
	bash Tests/Tools/bench.sh

clean:
	rm -rf .build
