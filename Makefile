# Tally — two commands for a new user: `make run` (the interactive market) and `make test`.
# `make demo`: the market linked to its own server and a running sandbox App Store (scripts/demo.sh).
SWIFT ?= swift
DATA ?= ./.tally

.PHONY: run serve demo tour test build deps bench clean check-storekit check-apple check-standin schemathesis docs

deps:
	@bash scripts/install-deps.sh

build: deps
	$(SWIFT) build

run: deps
	@DATA=$(DATA) bash scripts/market.sh

serve: deps
	@DATA=$(DATA) bash scripts/serve.sh

demo: deps
	@DATA=$(DATA) bash scripts/demo.sh

tour: deps
	@bash scripts/tour.sh

# The tests run beside a throw-away PostgreSQL cluster (scripts/with-postgres.sh), stopped when they end; then a real
# `tally serve` is checked against its OpenAPI description (docs/openapi.yaml) by schemathesis, about a minute.
test: deps check-apple
	@bash scripts/with-postgres.sh --replica $(SWIFT) test
	@$(MAKE) --no-print-directory schemathesis

# schemathesis against a real `tally serve` on loopback, once per key role (scripts/schemathesis.sh): no 5xx, and
# every status, content type and body as docs/openapi.yaml describes it.
schemathesis: deps
	@bash scripts/schemathesis.sh

# What an app links, checked for Apple platforms without an Apple SDK (docs/platforms.md): no API newer than the
# floor (iOS 15 / macOS 12) unguarded, no system library reachable from TallyCore, Tally or TallyStoreKit on any
# Apple platform (from `swift package dump-package`), each checker first proving on a bad case that it can fail;
# then every on-device module (TallyCore, Tally, TallyStoreKit, the Market app's model, and TallyTesting, which an
# app's on-device tests link) and the SwiftUI app
# Examples/MarketApp/MarketApp.swift type-checked against the stand-ins of StoreKit, CryptoKit, Security, UIKit,
# SwiftUI and Combine (Tests/*StandIn), no public top-level name of those modules one of StoreKit's or SwiftUI's
# (scripts/check-apple-names.sh), and the StoreKit stand-in checked against Apple's interface.
check-apple: deps
	python3 scripts/check_apple_floor.py --self-test
	python3 scripts/check_apple_floor.py
	python3 scripts/check_apple_closure.py --self-test
	python3 scripts/check_apple_closure.py
	@! grep -rn "@_spi" Sources/TallyCore Sources/Tally Sources/TallyStoreKit Examples/MarketApp || { echo "on-device code must not import a stand-in's SPI"; exit 1; }
	$(SWIFT) build --target TallyCore
	$(SWIFT) build --target Tally
	$(SWIFT) build --target TallyStoreKit
	$(SWIFT) build --target MarketAppModel
	$(SWIFT) build --target TallyTesting
	@if [ "$$(uname)" = Linux ]; then $(SWIFT) build --target MarketApp; else echo "MarketApp.swift: built by an Xcode app target on Apple platforms (Examples/MarketApp/README.md)"; fi
	@bash scripts/check-apple-names.sh
	@$(MAKE) --no-print-directory check-storekit
	@$(MAKE) --no-print-directory check-standin

# Type-checks TallyStoreKit (and the MarketApp example's model on it): against Apple's StoreKit, CryptoKit and
# Security on macOS, against the stand-in modules `StoreKit`, `CryptoKit` and `Security` (Tests/StoreKitStandIn,
# Tests/CryptoKitStandIn, Tests/SecurityStandIn) on Linux. The backend must not see the stand-in's SPI.
check-storekit: deps
	@! grep -rn "@_spi" Sources/TallyStoreKit Sources/Tally Sources/TallySandboxBackend || { echo "Sources/TallyStoreKit, Tally and TallySandboxBackend must not import the stand-ins' SPI (StoreKit, UIKit)"; exit 1; }
	$(SWIFT) build --target TallyStoreKit
	$(SWIFT) build --target MarketAppModel

# The StoreKit stand-in declares Apple's API exactly: every public declaration (SPI aside) is in Apple's iOS 26
# StoreKit interface (../shared/docs/storekit-interface-ios26.txt) at the same place (scripts/check_storekit_standin.py).
check-standin: deps
	$(SWIFT) build --target StoreKit
	python3 scripts/check_storekit_standin.py --module-dir "$$($(SWIFT) build --show-bin-path)/Modules"

# The DocC documentation of Tally, TallyCore, TallyServer, TallyVerify, TallyTesting and TallySandboxTesting as one
# static site in .build/docs, with the toolchain's docc and no plugin; any DocC warning (an unresolved ``Symbol``
# link, an undocumented parameter) fails it (scripts/docs.sh).
docs: deps
	@bash scripts/docs.sh

bench:
	@bash scripts/install-deps.sh --bench
	$(SWIFT) build -c release --product tally
	$(SWIFT) run -c release tally-bench all

clean:
	rm -rf .build $(DATA)
