# wundercast — the two commands a newcomer needs:
#   make demo   install what it needs, build, replay a real GPS track, watch the weather follow it
#   make test   install what it needs, build with warnings as errors, run every test
SHELL := /bin/bash
SWIFT ?= swift
DEBIAN_PACKAGES := libgps-dev libcurl4-openssl-dev libsystemd-dev libgeonames-dev gpsd gpsd-clients python3-gps socat systemd
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
DEMO_SECONDS ?= 120
# Release builds as installed: the Swift runtime linked in, optimised for size (fewer code pages
# in memory: the RSS target of `make bench`; the daemon idles at a few % of a core).
RELEASE := -c release --static-swift-stdlib -Xswiftc -Osize

PREFIX := /usr/local
DESTDIR ?=

.PHONY: demo test deps build cities bench install format check-format clean

# The city table (place names on the machine), written from libgeonames by wundercast-cities at
# build time: the daemon reads this file and never links libgeonames/GLib. Rewritten only when
# missing or when the tool changed.
CITIES := .build/cities.tsv
CITIES_TOOL := .build/debug/wundercast-cities

deps:
	@missing=$$(for p in $(DEBIAN_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:" $$missing; \
	  $(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends $$missing; \
	fi

build: deps cities
	$(SWIFT) build -Xswiftc -warnings-as-errors

cities: deps
	$(SWIFT) build --product wundercast-cities -Xswiftc -warnings-as-errors
	@$(MAKE) --no-print-directory $(CITIES)

$(CITIES): $(CITIES_TOOL)
	$(CITIES_TOOL) --output $@ --library-version "$$(pkg-config --modversion geonames)"

demo: build
	DEMO_SECONDS=$(DEMO_SECONDS) bash Tests/Tools/demo.sh

test: deps cities
	$(SWIFT) build --build-tests -Xswiftc -warnings-as-errors
	$(SWIFT) test --skip-build

bench: deps
	$(SWIFT) build $(RELEASE) -Xswiftc -warnings-as-errors
	bash Tests/Tools/bench.sh

# Installs the release binaries, stripped (Swift runtime linked in: they need only Debian's libgps,
# libcurl and libsystemd, not the toolchain), the sample configuration (kept if one exists), the units,
# the sysusers entry, the journal catalog and the docs. The units expect $(PREFIX)=/usr/local.
install: deps cities
	$(SWIFT) build $(RELEASE) -Xswiftc -warnings-as-errors
	bin=$$($(SWIFT) build $(RELEASE) --show-bin-path); \
	install -D -s -m 0755 "$$bin/wundercastd" "$(DESTDIR)$(PREFIX)/bin/wundercastd"; \
	install -D -s -m 0755 "$$bin/wundercastctl" "$(DESTDIR)$(PREFIX)/bin/wundercastctl"
	[ -e "$(DESTDIR)/etc/wundercast/wundercast.conf" ] || install -D -m 0644 etc/wundercast.conf "$(DESTDIR)/etc/wundercast/wundercast.conf"
	install -D -m 0644 -t "$(DESTDIR)/etc/systemd/system" systemd/wundercast.service systemd/wundercast.socket
	install -D -m 0644 -t "$(DESTDIR)/etc/systemd/user" systemd/user/wundercast.service systemd/user/wundercast.socket
	install -D -m 0644 systemd/wundercast.sysusers "$(DESTDIR)/etc/sysusers.d/wundercast.conf"
	install -D -m 0644 systemd/wundercast.catalog "$(DESTDIR)/etc/systemd/catalog/wundercast.catalog"
	install -D -m 0644 -t "$(DESTDIR)$(PREFIX)/share/doc/wundercast" README.md docs/PROTOCOL.md
	install -D -m 0644 $(CITIES) "$(DESTDIR)$(PREFIX)/share/wundercast/cities.tsv"
	@echo "installed; now: systemd-sysusers && journalctl --update-catalog && systemctl daemon-reload && systemctl enable --now wundercast.socket"

# swift format (in the toolchain) with the checked-in .swift-format.
format:
	$(SWIFT) format -i -r Sources Tests Package.swift

check-format:
	$(SWIFT) format -i -r Sources Tests Package.swift
	git diff --exit-code -- Sources Tests Package.swift || { echo "swift format changed the files above: run 'make format' and commit"; exit 1; }

clean:
	rm -rf .build
