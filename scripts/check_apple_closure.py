#!/usr/bin/env python3
"""What an app links pulls in no system library on any Apple platform.

Reads `swift package dump-package` (the manifest as SwiftPM resolved it) and, for each Apple platform, walks the
dependency closure of the products an app links (TallyCore, Tally, TallyStoreKit, and TallyTesting, which an app's
on-device tests link), following a conditional
dependency (`.when(platforms:)`) only where its condition names that platform. Fails, naming the path, when a
system-library target (OpenSSL, SQLite, libmicrohttpd, libpq) is reachable.

    python3 scripts/check_apple_closure.py              # runs `swift package dump-package` here
    python3 scripts/check_apple_closure.py --manifest F  # reads a dump saved in F
    python3 scripts/check_apple_closure.py --self-test   # proves the walk finds what it must
"""
import json
import subprocess
import sys

APP_PRODUCTS = ["TallyCore", "Tally", "TallyStoreKit", "TallyTesting"]
APPLE_PLATFORMS = ["ios", "macos", "tvos", "watchos", "visionos", "maccatalyst"]


def dependencies(target, platform):
    """The names of `target`'s dependencies that apply on `platform` (targets and products alike)."""
    names = []
    for dependency in target.get("dependencies", []):
        # {"byName": [name, condition]}, {"target": [name, condition]},
        # {"product": [name, package, moduleAliases, condition]}: the condition is last, null when none.
        (_, value), = dependency.items()
        name, condition = value[0], value[-1]
        if isinstance(condition, dict):
            platforms = condition.get("platformNames") or []
            if platforms and platform not in platforms:
                continue
        names.append(name)
    return names


def offending_paths(manifest, platform):
    """Every path from an app product to a system-library target on `platform`."""
    targets = {target["name"]: target for target in manifest["targets"]}
    products = {product["name"]: product for product in manifest["products"]}
    found = []
    for product in APP_PRODUCTS:
        if product not in products:
            found.append([f"product {product} is not declared"])
            continue
        stack = [(name, [product, name]) for name in products[product]["targets"]]
        seen = set()
        while stack:
            name, path = stack.pop()
            if name in seen:
                continue
            seen.add(name)
            target = targets.get(name)
            if target is None:
                # A product of this package named by its target's name, or an outside package: none is allowed.
                if name in products:
                    stack.extend((t, path + [t]) for t in products[name]["targets"])
                else:
                    found.append(path + ["(not a target of this package)"])
                continue
            if target["type"] == "system":
                found.append(path)
                continue
            stack.extend((dependency, path + [dependency]) for dependency in dependencies(target, platform))
    return found


def check(manifest):
    failures = 0
    for platform in APPLE_PLATFORMS:
        paths = offending_paths(manifest, platform)
        if paths:
            failures += len(paths)
            for path in paths:
                print(f"{platform}: {' -> '.join(path)}")
        else:
            print(f"{platform}: {', '.join(APP_PRODUCTS)} reach no system library")
    return failures


def self_test():
    """A manifest where TallyStoreKit reaches OpenSSL on Apple platforms must fail; gated on Linux, it must pass."""
    def manifest(condition):
        return {
            "products": [{"name": name, "targets": [name]} for name in APP_PRODUCTS],
            "targets": [
                {"name": "TallyCore", "type": "regular", "dependencies": []},
                {"name": "Tally", "type": "regular", "dependencies": [{"byName": ["TallyCore", None]}]},
                {"name": "TallyStoreKit", "type": "regular",
                 "dependencies": [{"byName": ["Tally", None]}, {"target": ["TallyVerify", condition]}]},
                {"name": "TallyTesting", "type": "regular", "dependencies": [{"byName": ["Tally", None]}]},
                {"name": "TallyVerify", "type": "regular", "dependencies": [{"byName": ["COpenSSL", None]}]},
                {"name": "COpenSSL", "type": "system", "dependencies": []},
            ],
        }
    bad = offending_paths(manifest(None), "ios")
    assert bad == [["TallyStoreKit", "TallyStoreKit", "TallyVerify", "COpenSSL"]], bad
    assert offending_paths(manifest({"platformNames": ["linux"]}), "ios") == []
    assert offending_paths(manifest({"platformNames": ["linux", "macos"]}), "macos") != []
    print("self-test: a system library under TallyStoreKit is found; one gated on Linux is not")


def main(arguments):
    if "--self-test" in arguments:
        self_test()
        return 0
    if "--manifest" in arguments:
        with open(arguments[arguments.index("--manifest") + 1]) as file:
            manifest = json.load(file)
    else:
        manifest = json.loads(subprocess.run(["swift", "package", "dump-package"], check=True,
                                             capture_output=True, text=True).stdout)
    failures = check(manifest)
    if failures:
        print(f"{failures} path(s) from an app product to a system library", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
