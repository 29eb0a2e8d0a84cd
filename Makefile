# Tally — two commands for a new user: `make run` (the interactive market) and `make test`.
SWIFT ?= swift
DATA ?= ./.tally

.PHONY: run serve tour test build deps bench clean

deps:
	@bash scripts/install-deps.sh

build: deps
	$(SWIFT) build

run: deps
	@DATA=$(DATA) bash scripts/market.sh

serve: deps
	@DATA=$(DATA) bash scripts/serve.sh

tour: deps
	@bash scripts/tour.sh

# The tests run beside a throw-away PostgreSQL cluster (scripts/with-postgres.sh), stopped when they end.
test: deps
	@bash scripts/with-postgres.sh $(SWIFT) test

bench:
	@bash scripts/install-deps.sh --bench
	$(SWIFT) build -c release --product tally
	$(SWIFT) run -c release tally-bench all

clean:
	rm -rf .build $(DATA)
