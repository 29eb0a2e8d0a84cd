# Tally — two commands for a new user: `make run` (the interactive market) and `make test`.
# `make demo`: the market linked to its own server and a running sandbox App Store (scripts/demo.sh).
SWIFT ?= swift
DATA ?= ./.tally

.PHONY: run serve demo tour test build deps bench clean check-storekit

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
	@! grep -rn "@_spi" Sources/TallyStoreKit Sources/Tally Sources/TallySandboxBackend || { echo "Sources/TallyStoreKit, Tally and TallySandboxBackend must not import the stand-ins' SPI (StoreKit, UIKit)"; exit 1; }
	$(SWIFT) build --target TallyStoreKit
	$(SWIFT) build --target MarketAppModel

bench:
	@bash scripts/install-deps.sh --bench
	$(SWIFT) build -c release --product tally
	$(SWIFT) run -c release tally-bench all

clean:
	rm -rf .build $(DATA)
