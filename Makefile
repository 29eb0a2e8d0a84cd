# Tally — two commands for a new user: `make run` and `make test`.
SWIFT ?= swift
DATA ?= ./.tally

.PHONY: run test build deps bench clean

deps:
	@bash scripts/install-deps.sh

build: deps
	$(SWIFT) build

run: deps
	@bash scripts/tour.sh

test: deps
	$(SWIFT) test

bench: deps
	$(SWIFT) run -c release tally-bench all

clean:
	rm -rf .build $(DATA)
