# Tally — two commands for a new user: `make run` (the interactive market) and `make test`.
# `make demo`: the market linked to its own server and a running sandbox App Store (scripts/demo.sh).
SWIFT ?= swift
DATA ?= ./.tally

.PHONY: run serve demo tour test build deps bench clean check-storekit check-apple

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

# The tests run beside a throw-away PostgreSQL cluster (scripts/with-postgres.sh), stopped when they end.
test: deps check-storekit
	@bash scripts/with-postgres.sh $(SWIFT) test

# Type-checks TallyStoreKit (and the MarketApp example's model on it): against Apple's StoreKit on macOS, against
# the stand-in module `StoreKit` (Tests/StoreKitStandIn) on Linux. The backend must not see the stand-in's SPI.
check-storekit: deps
	@! grep -rn "@_spi" Sources/TallyStoreKit || { echo "Sources/TallyStoreKit must not import the stand-in's SPI"; exit 1; }
	$(SWIFT) build --target TallyStoreKit
	$(SWIFT) build --target MarketAppModel

# Type-checks every on-device module (TallyCore, Tally, TallyStoreKit, the Market app's model) and the SwiftUI app
# Examples/MarketApp/MarketApp.swift: on Linux against the stand-ins of StoreKit, SwiftUI and Combine (Tests/*StandIn),
# which declare Apple's API. Then checks that no public top-level name of those modules is one of StoreKit's or
# SwiftUI's (scripts/check-apple-names.sh).
check-apple: deps
	@! grep -rn "@_spi" Sources/TallyCore Sources/Tally Sources/TallyStoreKit Examples/MarketApp || { echo "on-device code must not import a stand-in's SPI"; exit 1; }
	$(SWIFT) build --target TallyCore
	$(SWIFT) build --target Tally
	$(SWIFT) build --target TallyStoreKit
	$(SWIFT) build --target MarketAppModel
	@if [ "$$(uname)" = Linux ]; then $(SWIFT) build --target MarketApp; else echo "MarketApp.swift: built by an Xcode app target on Apple platforms (Examples/MarketApp/README.md)"; fi
	@bash scripts/check-apple-names.sh

bench:
	@bash scripts/install-deps.sh --bench
	$(SWIFT) build -c release --product tally
	$(SWIFT) run -c release tally-bench all

clean:
	rm -rf .build $(DATA)
