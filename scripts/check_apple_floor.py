#!/usr/bin/env python3
"""No API newer than the package's Apple floor (iOS 15, macOS 12, tvOS 15, watchOS 8) is used unguarded.

No Apple SDK exists on Linux, where the compiler checks no Apple availability, so this lint stands in for that
check: it reads every Swift file of Sources/ and Examples/ (comments and string literals removed) and reports each
use of an API on its list that is newer than the floor, unless an enclosing scope carries an `@available(iOS N…`
or `#available(iOS N…` with N at least the API's iOS version. The list is of APIs known newer than the floor; an
API missing from it is not caught (docs/platforms.md says so).

    python3 scripts/check_apple_floor.py            # the package; exit 1 on any finding
    python3 scripts/check_apple_floor.py FILE...    # those files
    python3 scripts/check_apple_floor.py --self-test
"""
import os
import re
import sys

FLOOR_IOS = 15.0

# pattern → (iOS version it needs, what it is)
NEWER_APIS = [
    (r"\bMutex\s*[<(]", 18.0, "Synchronization's Mutex"),
    (r"\bAtomic\s*[<(]", 18.0, "Synchronization's Atomic"),
    (r"\bDuration\b", 16.0, "Swift's Duration"),
    (r"\b(Continuous|Suspending)Clock\b", 16.0, "Swift's clocks"),
    (r"\.sleep\(\s*for\s*:", 16.0, "Task.sleep(for:)"),
    (r"\.sleep\(\s*until\s*:", 16.0, "Task.sleep(until:)"),
    (r"@Observable\b", 17.0, "Observation's @Observable"),
    (r"\bwithObservationTracking\b", 17.0, "Observation's withObservationTracking"),
    (r"\bRegex\b|#/", 16.0, "Swift Regex"),
    (r"\.(wholeMatch|firstMatch|prefixMatch)\(", 16.0, "Regex matching"),
    (r"\.(replacing|trimmingPrefix|firstRange|ranges)\(", 16.0, "Swift 5.7 string algorithms"),
    (r"\bURL\(\s*filePath\s*:", 16.0, "URL(filePath:)"),
    (r"\.appending\(\s*(path|component|components|queryItems)\s*:", 16.0, "URL.appending(path:)"),
    (r"\bURL\.(homeDirectory|temporaryDirectory|documentsDirectory|cachesDirectory)\b", 16.0, "URL's directories"),
    (r"\.path\(\s*percentEncoded\s*:", 16.0, "URL.path(percentEncoded:)"),
    (r"\bOSAllocatedUnfairLock\b", 16.0, "OSAllocatedUnfairLock"),
    (r"\bLocalizedStringResource\b", 16.0, "LocalizedStringResource"),
    (r"\b(withDiscardingTaskGroup|withThrowingDiscardingTaskGroup|DiscardingTaskGroup)\b", 17.0,
     "discarding task groups"),
    (r"\b(TaskExecutor|withTaskExecutorPreference)\b", 18.0, "task executors"),
    (r"\b(InlineArray|RawSpan|MutableSpan|Span)\s*[<(.]", 26.0, "Span / InlineArray"),
    (r"\bTask\.immediate\b", 26.0, "Task.immediate"),
    (r"\bisolated\s+deinit\b", 18.0, "isolated deinit"),
    # StoreKit 2 past iOS 15 (Apple's interface: ../shared/docs/storekit-interface-ios26.txt).
    (r"\bPurchaseIntent\b", 16.4, "StoreKit's PurchaseIntent"),
    (r"\bMessage\.(messages|Messages|Reason)\b", 16.0, "StoreKit's Message"),
    (r"\bAppTransaction\.(shared|refresh)\b", 16.0, "StoreKit's AppTransaction"),
    (r"\bStatus\.updates\b", 17.0, "StoreKit's Product.SubscriptionInfo.Status.updates"),
    (r"\.groupLevel\b", 16.4, "StoreKit's SubscriptionInfo.groupLevel"),
    # `promotionalOffer(_:compactJWS:)` and `introductoryOfferEligibility(compactJWS:)` are back-deployed to iOS 15.
    (r"\.winBackOffer\(", 18.0, "StoreKit's PurchaseOption.winBackOffer(_:)"),
    (r"\bSubscriptionOffer\.Signature\b", 17.4, "StoreKit's Product.SubscriptionOffer.Signature"),
    (r"\.winBackOffers\b", 18.0, "StoreKit's SubscriptionInfo.winBackOffers"),
    (r"\.eligibleWinBackOfferIDs\b", 18.0, "StoreKit's RenewalInfo.eligibleWinBackOfferIDs"),
    (r"\bpresentOfferCodeRedeemSheet\(\s*in\s*:", 16.0, "AppStore.presentOfferCodeRedeemSheet(in:)"),
]
# Names the engine's own types share (TallyCore's `CatalogProduct.Subscription.winBackOffers`): StoreKit's only in
# a file that imports StoreKit.
STOREKIT_ONLY = {"StoreKit's SubscriptionInfo.winBackOffers", "StoreKit's RenewalInfo.eligibleWinBackOfferIDs"}
IMPORTS_STOREKIT = re.compile(r"^\s*(@\w+(\([^)]*\))?\s+)*import\s+StoreKit\b", re.MULTILINE)
COMPILED = [(re.compile(pattern), version, name) for pattern, version, name in NEWER_APIS]
AVAILABLE = re.compile(r"[@#]available\(\s*iOS\s+(\d+(?:\.\d+)?)")
GUARD_AVAILABLE = re.compile(r"\bguard\s+#available\(\s*iOS\s+(\d+(?:\.\d+)?)")
UNAVAILABLE_IOS = re.compile(r"@available\(\s*iOS\s*,\s*unavailable")


def strip(source):
    """The source with comments and string literals blanked (line structure kept)."""
    out = []
    i, n = 0, len(source)
    while i < n:
        if source.startswith("//", i):
            j = source.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif source.startswith("/*", i):
            j = source.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", source[i:j]))
            i = j
        elif source.startswith('"""', i):
            j = source.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append(re.sub(r"[^\n]", " ", source[i:j]))
            i = j
        elif source[i] == '"':
            j = i + 1
            while j < n and source[j] != '"' and source[j] != "\n":
                j += 2 if source[j] == "\\" else 1
            out.append('"' + " " * (j - i - 1) + ('"' if j < n and source[j] == '"' else ""))
            i = j + 1 if j < n and source[j] == '"' else j
        else:
            out.append(source[i])
            i += 1
    return "".join(out)


def findings(path, source):
    """(line, message) for each use of a newer API outside a scope that guards it."""
    text = strip(source)
    apis = COMPILED if IMPORTS_STOREKIT.search(text) else [api for api in COMPILED if api[2] not in STOREKIT_ONLY]
    results = []
    scopes = []          # the iOS version each open brace's scope guarantees (FLOOR_IOS when none)
    pending = None       # a version from @available/#available waiting for its declaration's brace
    for number, line in enumerate(text.split("\n"), start=1):
        guaranteed = max([FLOOR_IOS] + scopes)
        guard = GUARD_AVAILABLE.search(line)
        if guard and scopes:
            # `guard #available(iOS N…) else { … }`: the rest of the enclosing scope runs on iOS N.
            scopes[-1] = max(scopes[-1], float(guard.group(1)))
            guaranteed = max([FLOOR_IOS] + scopes)
        for match in AVAILABLE.finditer(line):
            if guard and match.start() == line.find("#available", guard.start()):
                continue
            pending = max(pending or 0, float(match.group(1)))
        if UNAVAILABLE_IOS.search(line):
            pending = max(pending or 0, 99.0)
        here = max(guaranteed, pending or 0)
        for pattern, version, name in apis:
            if pattern.search(line) and version > here:
                results.append((number, f"{name} needs iOS {version:g}; guard it with @available/#available "
                                        f"or use what works on iOS {FLOOR_IOS:g}"))
        for character in line:
            if character == "{":
                scopes.append(max(guaranteed, pending or 0))
                pending = None
                guaranteed = scopes[-1]
            elif character == "}" and scopes:
                scopes.pop()
                guaranteed = max([FLOOR_IOS] + scopes)
    return results


def swift_files(roots):
    for root in roots:
        for directory, _, names in os.walk(root):
            for name in sorted(names):
                if name.endswith(".swift"):
                    yield os.path.join(directory, name)


def self_test():
    cases = {
        "import Synchronization\nlet m = Mutex(0)\n": 1,
        "@available(iOS 18, macOS 15, *)\nfinal class A {\n  let m = Mutex(0)\n}\n": 0,
        "func f() {\n  if #available(iOS 17, *) {\n    _ = Status.updates\n  }\n  _ = Status.updates\n}\n": 1,
        "// Mutex(0) in a comment, Duration too\nlet s = \"Duration\"\n": 0,
        "@available(iOS 17, *)\n@Observable\nfinal class M {}\n": 0,
        "@Observable\nfinal class M {}\n": 1,
        "func f() {\n  guard #available(iOS 17, *) else { return }\n  _ = Status.updates\n}\n_ = Status.updates\n": 1,
        "let d: Duration = .seconds(1)\n": 1,
        "import StoreKit\nfunc f(p: Product) -> [Product.SubscriptionOffer] { p.subscription?.winBackOffers ?? [] }\n": 1,
        "import StoreKit\nfunc f(p: Product) {\n  if #available(iOS 18, *) { _ = p.subscription?.winBackOffers }\n}\n": 0,
        "import TallyCore\nfunc f(p: CatalogProduct) { _ = p.subscription?.winBackOffers }\n": 0,
        "import StoreKit\nlet o = Product.PurchaseOption.winBackOffer(offer)\n": 1,
        "import StoreKit\nlet o = Product.PurchaseOption.introductoryOfferEligibility(compactJWS: j)\n": 0,
        "@available(iOS, unavailable)\nextension X {\n  func f() async throws { try await Task.sleep(for: .seconds(1)) }\n}\n": 0,
    }
    for source, expected in cases.items():
        got = findings("case.swift", source)
        assert len(got) == expected, (source, got)
    print(f"self-test: {len(cases)} cases, each finding what it must")


def main(arguments):
    if "--self-test" in arguments:
        self_test()
        return 0
    paths = arguments or list(swift_files(["Sources", "Examples"]))
    count = 0
    for path in paths:
        with open(path, encoding="utf-8") as file:
            for number, message in findings(path, file.read()):
                print(f"{path}:{number}: {message}")
                count += 1
    print(f"{len(paths)} Swift files read; {count} use(s) of an API newer than iOS {FLOOR_IOS:g} unguarded")
    return 1 if count else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
