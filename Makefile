# wundercast — the two commands a newcomer needs:
#   make demo   install what it needs, build, replay a real GPS track, watch the weather follow it
#   make test   install what it needs, build with warnings as errors, run every test
SHELL := /bin/bash
SWIFT ?= swift
DEBIAN_PACKAGES := libgps-dev libcurl4-openssl-dev libsystemd-dev libgeonames-dev libmosquitto-dev libnova-dev zlib1g-dev gpsd gpsd-clients python3-gps socat systemd gettext
# Only for `make test`: the real status bars the snippets in etc/ are tested in (waybar in a headless
# sway read back by OCR, polybar under Xvfb, i3blocks), the emoji font the snippets draw the icon in
# (its colour is looked for on screen), the man page checker and the shells of the completions, and a
# real MQTT broker with its clients (mosquitto, mosquitto_sub) for the fleet tests.
# `locales` gives localedef, which makes the locales wundercastctl's language tests run in (TEST_LOCALES).
# Neither `make demo` nor `make install` needs them.
TEST_PACKAGES := i3blocks waybar sway grim tesseract-ocr tesseract-ocr-eng fonts-dejavu-core fonts-noto-color-emoji \
  polybar xvfb netpbm groff-base man-db fish zsh mosquitto mosquitto-clients python3-jinja2 locales
# The locales the language and clock tests use (a fresh Debian has only C, C.utf8 and POSIX): one per
# language of po/, en_US (12-hour clock) and en_GB (24-hour English). Made once with localedef.
TEST_LOCALES := de_DE fr_FR es_ES it_IT nl_NL nb_NO sv_SE pl_PL en_US en_GB
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
DEMO_SECONDS ?= 120
# Release builds as installed: the Swift runtime linked in, optimised for size (fewer code pages
# in memory: the RSS target of `make bench`; the daemon idles at a few % of a core).
# `--icf=safe`: the linker folds identical functions whose address is never taken (generic
# specialisations repeat a lot): about 150 kB less wundercastctl, whose cap is 16 MB (issue 8; 16.5 MB from issue 14 to 15).
# `-disable-concrete-type-metadata-mangled-name-accessors`: a concrete type's metadata is reached
# through its accessor function, not by demangling its name at run time on first use — a
# process that lives for one call (wundercastctl from a bar) spends most of its start there:
# 4.04 M → 3.52 M instructions per `wundercastctl now` (callgrind, 2026-12-02; socat 4.55 M).
RELEASE := -c release --static-swift-stdlib -Xswiftc -Osize -Xlinker --icf=safe \
  -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors

PREFIX ?= /usr/local
DESTDIR ?=
SYSCONFDIR ?= /etc

.PHONY: demo test print-test-width deps test-deps build cities bench release install install-files install-data uninstall \
  check-install format check-format clean faults faults-full locales pot po-update

# The city table (place names on the machine), written from libgeonames by wundercast-cities at
# build time: the daemon reads this file and never links libgeonames/GLib. Rewritten only when
# missing or when the tool changed.
CITIES := .build/cities.bin
CITIES_TOOL := .build/debug/wundercast-cities

# $(call apt_install,PACKAGES): installs those of PACKAGES that are not installed yet.
define apt_install
	@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:" $$missing; \
	  $(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends $$missing; \
	fi
endef

deps:
	$(call apt_install,$(DEBIAN_PACKAGES))

test-deps:
	$(call apt_install,$(DEBIAN_PACKAGES) $(TEST_PACKAGES))
	@for l in $(TEST_LOCALES); do \
	  locale -a | grep -qx "$$l.utf8" || { echo "localedef $$l.UTF-8"; $(SUDO) localedef -i $$l -f UTF-8 $$l.UTF-8; }; \
	done

# wundercastctl's message catalogues (README "Language and clock"): po/<lang>.po compiled by msgfmt
# into $(LOCALE_DIR)/<lang>/LC_MESSAGES/wundercast.mo, which `make install` puts in
# $(PREFIX)/share/locale. A built wundercastctl looks in <bin>/../share/locale, its path resolved
# (.build/debug is a link to .build/<triple>/debug), so `make build` compiles them there. The template po/wundercast.pot is written from the sources by po/extract.py
# (`make pot`: xgettext cannot read Swift); `make po-update` merges it into every po/<lang>.po.
LOCALE_DIR := .build/$(shell uname -m)-unknown-linux-gnu/share/locale
CATALOGS := $(patsubst po/%.po,$(LOCALE_DIR)/%/LC_MESSAGES/wundercast.mo,$(wildcard po/*.po))

locales: $(CATALOGS)

$(LOCALE_DIR)/%/LC_MESSAGES/wundercast.mo: po/%.po
	@mkdir -p $(dir $@)
	msgfmt --check -o $@ $<

pot:
	python3 po/extract.py > po/wundercast.pot.tmp && mv po/wundercast.pot.tmp po/wundercast.pot

po-update: pot
	@for po in po/*.po; do msgmerge --quiet --update --backup=none --no-wrap --no-fuzzy-matching $$po po/wundercast.pot; done

build: deps cities locales
	$(SWIFT) build -Xswiftc -warnings-as-errors

cities: deps
	$(SWIFT) build --product wundercast-cities -Xswiftc -warnings-as-errors
	@$(MAKE) --no-print-directory $(CITIES)

$(CITIES): $(CITIES_TOOL)
	$(CITIES_TOOL) --image --output $@ --library-version "$$(pkg-config --modversion geonames)"

demo: build
	DEMO_SECONDS=$(DEMO_SECONDS) bash Tests/Tools/demo.sh

# How many test cases run at once (Swift Testing's SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH;
# unset, all ~1,000 start together). A test case's `.timeLimit` and its own deadlines start when it
# gets its turn, so no deadline counts the time it queued behind other tests (issue 15): with
# every case at once on 2 cores, cases of 0.06 s alone took over 60 s. Tests/Tools/under-load.sh
# takes the same width from here (`make -s print-test-width`).
TEST_WIDTH ?= 8

test: test-deps cities
	$(SWIFT) build --build-tests -Xswiftc -warnings-as-errors
	SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) $(SWIFT) test --skip-build

print-test-width:
	@echo $(TEST_WIDTH)

# The fault suite (Tests/WundercastFaultTests, README "Fault suite"): real daemons under a faulty
# world. `make faults` runs the CI subset (one scenario per finding and per fault class, a few
# minutes), `make faults-full` the whole campaign (FAULTS=full). Each scenario writes its counts to
# FAULT_REPORT; the one table is printed from it after the run, and the target fails when a test
# failed or any count but scenarios and faults injected is not zero.
FAULTS ?= ci
FAULT_REPORT ?= $(CURDIR)/.build/faults-report.jsonl

faults: cities
	$(call apt_install,faketime)
	$(SWIFT) build --build-tests -Xswiftc -warnings-as-errors
	@rm -f $(FAULT_REPORT)
	@status=0; FAULTS=$(FAULTS) WUNDERCAST_FAULT_REPORT=$(FAULT_REPORT) \
	  $(SWIFT) test --skip-build --no-parallel --filter WundercastFaultTests || status=$$?; \
	  echo "Fault suite (FAULTS=$(FAULTS)):"; bash Tests/Tools/fault-table.sh $(FAULT_REPORT) && exit $$status

faults-full:
	@$(MAKE) --no-print-directory faults FAULTS=full

bench: deps cities
	$(SWIFT) build $(RELEASE) -Xswiftc -warnings-as-errors
	bash Tests/Tools/bench.sh

# Installs the release binaries, stripped (Swift runtime linked in: they need only Debian's libgps,
# libcurl and libsystemd, not the toolchain), the units (system and user), the sysusers entry, the
# journal catalog, the city table, the sample configuration (kept if one exists) and install-data,
# each where systemd and the tools look for PREFIX=/usr/local (default) or /usr: see
# systemd/install.sh, which also writes the manifest `make uninstall` follows.
install: deps cities install-data release locales
	@$(MAKE) --no-print-directory install-files
	@echo "installed; now: systemd-sysusers && journalctl --update-catalog && systemctl daemon-reload && systemctl enable --now wundercast.socket"

release: deps cities locales
	$(SWIFT) build $(RELEASE) -Xswiftc -warnings-as-errors

# install without building: the release binaries in .build/release must exist (`make release`); the
# message catalogues are compiled here when missing (msgfmt).
install-files: locales
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" SYSCONFDIR="$(SYSCONFDIR)" \
	  bash systemd/install.sh install .build/release $(CITIES) $(LOCALE_DIR)

# What needs no build: the docs, the man pages (man/NAME.SECTION), the shell completions, and every
# file of etc/ (the bar snippets and the sample configuration) as examples ready to paste.
# Tests/WundercastBarTests/InstallTests.swift runs it into a temporary DESTDIR.
install-data:
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" SYSCONFDIR="$(SYSCONFDIR)" bash systemd/install.sh install-data

# Removes exactly what install and install-data put there (their manifest), and the directories
# they created once empty. /etc/wundercast/wundercast.conf goes only if unchanged since install.
uninstall:
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" SYSCONFDIR="$(SYSCONFDIR)" bash systemd/install.sh uninstall

# The full install test (stripped sizes, the installed units verified, the catalog listed by
# journalctl from the installed tree, uninstall leaving nothing): Tests/WundercastBarTests/
# FullInstallTests.swift, enabled by WUNDERCAST_INSTALL_TEST=1 once the release build exists
# (it runs install-files, never a build itself). CI runs it after `make test`.
check-install: release
	$(SWIFT) build --build-tests -Xswiftc -warnings-as-errors
	WUNDERCAST_INSTALL_TEST=1 $(SWIFT) test --skip-build --filter FullInstallTests

# libFuzzer targets (Tests/Fuzz/README.md) built with ASan in .build/fuzz and run FUZZ_SECONDS each
# from their seed corpora: one table (executions, cov, corpus, crashes); fails on a crash or cov 0.
# CI runs `make fuzz` (a minute a target); `make fuzz-long` runs 30 minutes a target.
.PHONY: fuzz fuzz-long
FUZZ_SECONDS ?= 60
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) bash Tests/Tools/fuzz.sh

fuzz-long:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=1800

# swift format (in the toolchain) with the checked-in .swift-format.
format:
	$(SWIFT) format -i -r Sources Tests Package.swift

check-format:
	$(SWIFT) format -i -r Sources Tests Package.swift
	git diff --exit-code -- Sources Tests Package.swift || { echo "swift format changed the files above: run 'make format' and commit"; exit 1; }

clean:
	rm -rf .build
