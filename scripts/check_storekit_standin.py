#!/usr/bin/env python3
"""Checks that the StoreKit stand-in (Tests/StoreKitStandIn, module `StoreKit`) declares Apple's API exactly.

Every public declaration of the stand-in (its `@_spi(Scripting)` ones excepted) must appear in Apple's StoreKit
interface (../shared/docs/storekit-interface-ios26.txt) at the same place: the same enclosing type path and, for a
member of a constrained extension, the same `where` clause. Declarations are compared after normalising whitespace;
the stand-in's declarations come from `swift-symbolgraph-extract` on the built module, so the compiler, not a text
parser, says what is public, what is SPI and what a `let x = ...` infers to. Also compared:
- conformances: each protocol the stand-in's type conforms to (and its conditions) must be Apple's, on that type;
- availability, where the stand-in writes it: each platform it names must have Apple's introduced version (or
  Apple's `unavailable`), Apple's taken from the declaration or its enclosing extension/type;
- `@MainActor` and `@frozen`, which change what a caller may write.

Usage:
  check_storekit_standin.py --module-dir .build/debug/Modules          # the built stand-in
  check_storekit_standin.py --source a.swift [b.swift ...]             # compiles a snippet as module StoreKit
  check_storekit_standin.py --symbol-graph StoreKit.symbols.json
Prints "N of M declarations match" and each mismatch; exits 1 on any mismatch, 2 when it cannot run.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_INTERFACE = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "docs", "storekit-interface-ios26.txt"))

# Attributes that change what a caller may write; all others (@inlinable, @backDeployed, @preconcurrency, ...) are
# implementation details of Apple's binary and are ignored on both sides.
KEPT_ATTRIBUTES = {"MainActor", "frozen"}
# Protocols every Swift type gets implicitly (not declared by Apple's interface).
IMPLICIT_PROTOCOLS = {"Copyable", "Escapable", "SendableMetatype", "BitwiseCopyable"}
# Protocol refinement: a conformance to the key implies conformances to the values, under the same conditions.
IMPLIED = {
    "Hashable": ["Equatable"],
    "Comparable": ["Equatable"],
    "LocalizedError": ["Error"],
    "Error": ["Sendable"],
}


class CheckError(Exception):
    """The checker cannot run (a missing tool, an unreadable input)."""


def normalise(text):
    """Whitespace-insensitive form: runs of blanks collapse, and no blank touches punctuation."""
    text = re.sub(r"\s+", " ", text.strip())
    return re.sub(r"\s*([:,()<>\[\]{}=?])\s*", r"\1", text)


def split_top_level(text, separator=","):
    """Splits on `separator` outside (), <> and []."""
    parts, depth, current = [], 0, ""
    for char in text:
        if char in "(<[":
            depth += 1
        elif char in ")>]":
            depth -= 1
        if char == separator and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    if current.strip():
        parts.append(current)
    return [part.strip() for part in parts]


def strip_attributes(text):
    """Removes leading attributes and `public`/`open`; answers the remaining text and the kept attribute names."""
    kept = set()
    text = text.strip()
    while True:
        match = re.match(r"@(\w+)", text)
        if match:
            end = match.end()
            if end < len(text) and text[end] == "(":
                depth = 0
                for index in range(end, len(text)):
                    if text[index] == "(":
                        depth += 1
                    elif text[index] == ")":
                        depth -= 1
                        if depth == 0:
                            end = index + 1
                            break
            if match.group(1) in KEPT_ATTRIBUTES:
                kept.add(match.group(1))
            text = text[end:].strip()
            continue
        match = re.match(r"(public|open)\b", text)
        if match:
            text = text[match.end():].strip()
            continue
        match = re.match(r"(nonisolated|static|final|mutating|nonmutating|indirect|convenience|required)\s+", text)
        if match and re.search(r"@|\bpublic\b", text[match.end():].split("(")[0]):
            # A modifier before an attribute or `public` (e.g. `nonisolated public func`): keep it, drop the rest.
            rest, rest_kept = strip_attributes(text[match.end():])
            return match.group(1) + " " + rest, kept | rest_kept
        return text, kept


def parse_availability(attribute_text):
    """`@available(...)` → {domain: ("introduced", version) | ("unavailable", None)}; `*` and Swift are skipped."""
    result = {}
    inner = attribute_text[attribute_text.index("(") + 1: attribute_text.rindex(")")]
    parts = split_top_level(inner)
    if not parts:
        return result
    head = parts[0].split()
    if len(head) == 1 and len(parts) > 1 and all(":" in part or part in ("unavailable", "deprecated")
                                                   for part in parts[1:]):
        domain = head[0]
        entry = None
        for part in parts[1:]:
            if part == "unavailable":
                entry = ("unavailable", None)
            elif part.startswith("introduced:") and entry is None:
                entry = ("introduced", version(part.split(":", 1)[1].strip()))
        if entry is not None and domain != "*":
            result[domain] = entry
        return result
    for part in parts:
        words = part.split()
        if len(words) == 2 and words[0] != "swift":
            result[words[0]] = ("introduced", version(words[1]))
    return result


def version(text):
    numbers = [int(piece) for piece in text.split(".")]
    while len(numbers) > 1 and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers)


def leading_attributes(text):
    """The `@available(...)` attributes at the start of `text` (one declaration's attribute lines)."""
    found = []
    for match in re.finditer(r"@available\(", text):
        depth, start = 0, match.start()
        for index in range(match.end() - 1, len(text)):
            if text[index] == "(":
                depth += 1
            elif text[index] == ")":
                depth -= 1
                if depth == 0:
                    found.append(text[start:index + 1])
                    break
    return found


def availability_of(attribute_texts):
    merged = {}
    for attribute in attribute_texts:
        merged.update(parse_availability(attribute))
    return merged


class Interface:
    """Apple's interface text, read by brace nesting: declarations by place, conformances by type path."""

    def __init__(self, text):
        self.declarations = {}  # place -> list of (normalised declaration, kept attributes, availability)
        self.conformances = {}  # type path -> set of (protocol, normalised conditions)
        self._parse(text)

    def _parse(self, text):
        # Each scope: (type path, the extension's where-conditions, the scope's availability).
        scopes = [([], "", {})]
        pending = []
        for raw in text.splitlines():
            line = raw.strip()
            if not line or line.startswith("//") or line.startswith("import "):
                continue
            if line == "}":
                if len(scopes) == 1:
                    raise CheckError(f"the interface closes a brace it never opened, at: {raw}")
                scopes.pop()
                pending = []
                continue
            declaration, kept = strip_attributes(line)
            if not declaration:
                pending.append(line)
                continue
            attributes = leading_attributes(" ".join(pending + [line]))
            own = availability_of(attributes)
            path, conditions, context = scopes[-1]
            effective = dict(context)
            effective.update(own)
            pending = []
            opens = line.endswith("{")
            if opens:
                head = declaration[:-1].strip()
                extension = re.match(r"extension\s+([\w.]+)\s*(?::\s*(.*?))?\s*(?:\bwhere\s+(.*))?$", head)
                nominal = re.match(r"((?:\w+\s+)*?)(struct|enum|class|actor|protocol)\s+(\w+)(<[^>]*>)?"
                                   r"\s*(?::\s*(.*?))?\s*(\bwhere\s+.*)?$", head)
                if extension:
                    type_path = extension.group(1).split(".")
                    where = conditions_text(extension.group(3) or "")
                    for protocol in split_top_level(extension.group(2) or ""):
                        self._conform(type_path, protocol, where)
                    scopes.append((type_path, where, effective))
                elif nominal:
                    name = nominal.group(3)
                    signature = " ".join(filter(None, [nominal.group(1).strip(), nominal.group(2),
                                                        name + (nominal.group(4) or ""),
                                                        (nominal.group(6) or "").strip()]))
                    self._declare(path, conditions, signature, kept, effective)
                    for protocol in split_top_level(nominal.group(5) or ""):
                        self._conform(path + [name], protocol, "")
                    scopes.append((path + [name], "", effective))
                else:
                    raise CheckError(f"cannot read the interface line: {line}")
            else:
                self._declare(path, conditions, declaration, kept, effective)
        if len(scopes) != 1:
            raise CheckError(f"the interface ends inside {'.'.join(scopes[-1][0])}: a brace is never closed")

    def _declare(self, path, conditions, declaration, kept, availability):
        place = place_key(path, conditions)
        self.declarations.setdefault(place, []).append((normalise(declaration), kept, availability))

    def _conform(self, type_path, protocol, conditions):
        protocols = [protocol.strip()]
        while protocols:
            name = protocols.pop()
            self.conformances.setdefault(".".join(type_path), set()).add((name, conditions))
            protocols.extend(IMPLIED.get(name, []))


def conditions_text(where):
    return ",".join(sorted(normalise(part) for part in split_top_level(where)))


def place_key(path, conditions):
    return ".".join(path) + (f" where {conditions}" if conditions else "")


def constraint_text(constraints):
    parts = []
    for constraint in constraints or []:
        if constraint.get("rhs") in IMPLICIT_PROTOCOLS:
            continue
        operator = "==" if constraint["kind"] == "sameType" else ":"
        parts.append(normalise(f"{constraint['lhs']} {operator} {constraint['rhs']}"))
    return ",".join(sorted(set(parts)))


def availability_from_graph(entries):
    result = {}
    for entry in entries or []:
        domain = entry.get("domain")
        if not domain or domain == "*":
            continue
        if entry.get("isUnconditionallyUnavailable"):
            result[domain] = ("unavailable", None)
        elif "introduced" in entry:
            numbers = entry["introduced"]
            result[domain] = ("introduced", version(".".join(str(numbers.get(key, 0))
                                                              for key in ("major", "minor", "patch"))))
    return result


def describe_availability(availability):
    return ", ".join(f"{domain} {'unavailable' if kind == 'unavailable' else '.'.join(map(str, number))}"
                     for domain, (kind, number) in sorted(availability.items())) or "none"


def check(graph, interface):
    """Answers (checked, mismatches): each stand-in declaration and conformance, and what differs."""
    symbols = {symbol["identifier"]["precise"]: symbol for symbol in graph["symbols"]}
    checked, mismatches = 0, []
    for precise, symbol in symbols.items():
        if "::SYNTHESIZED::" in precise or symbol.get("spi") or symbol.get("accessLevel") not in ("public", "open"):
            continue
        checked += 1
        path = symbol["pathComponents"][:-1]
        conditions = constraint_text((symbol.get("swiftExtension") or {}).get("constraints"))
        place = place_key(path, conditions)
        text = "".join(fragment["spelling"] for fragment in symbol["declarationFragments"])
        declaration, kept = strip_attributes(text)
        wanted = normalise(declaration)
        candidates = [entry for entry in interface.declarations.get(place, []) if entry[0] == wanted]
        label = f"{place or '(top level)'}: {text}"
        if not candidates:
            known = [entry[0] for entry in interface.declarations.get(place, [])]
            name = symbol["names"]["title"].split("(")[0]
            near = [entry for entry in known if re.search(r"\b" + re.escape(name) + r"\b", entry)]
            hint = f" (Apple at this place: {'; '.join(near)})" if near else \
                (" (Apple declares nothing at this place)" if not known else "")
            mismatches.append(f"not in Apple's interface: {label}{hint}")
            continue
        if not any(entry[1] == kept for entry in candidates):
            mismatches.append(f"attributes differ: {label} has {sorted(kept) or 'none'}, "
                              f"Apple {sorted(candidates[0][1]) or 'none'}")
            continue
        written = availability_from_graph(symbol.get("availability"))
        if written and not any(all(entry[2].get(domain) == value for domain, value in written.items())
                               for entry in candidates):
            mismatches.append(f"availability differs: {label} says {describe_availability(written)}, "
                              f"Apple {describe_availability(candidates[0][2])}")
    seen = set()
    for relation in graph["relationships"]:
        if relation["kind"] != "conformsTo" or relation["source"] not in symbols:
            continue
        source = symbols[relation["source"]]
        if source.get("spi") or source.get("accessLevel") not in ("public", "open"):
            continue
        protocol = relation.get("targetFallback", relation["target"]).split(".")[-1]
        if relation["target"] in symbols:
            protocol = ".".join(symbols[relation["target"]]["pathComponents"])
        if protocol in IMPLICIT_PROTOCOLS:
            continue
        type_path = ".".join(source["pathComponents"])
        conditions = constraint_text(relation.get("swiftConstraints"))
        key = (type_path, protocol, conditions)
        if key in seen:
            continue
        seen.add(key)
        checked += 1
        if (protocol, conditions) not in interface.conformances.get(type_path, set()):
            apple = sorted(f"{name}{' where ' + where if where else ''}"
                           for name, where in interface.conformances.get(type_path, set()) if name == protocol)
            what = f"{type_path}: {protocol}{' where ' + conditions if conditions else ''}"
            mismatches.append(f"conformance not Apple's: {what}"
                              + (f" (Apple: {'; '.join(apple)})" if apple else " (Apple declares none)"))
    return checked, mismatches


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise CheckError(f"{' '.join(command)} failed:\n{result.stderr.strip()}")
    return result.stdout


def extractor():
    tool = shutil.which("swift-symbolgraph-extract")
    if tool:
        return [tool]
    if shutil.which("swift"):
        return ["swift", "symbolgraph-extract"]
    raise CheckError("neither swift-symbolgraph-extract nor swift is on PATH")


def target_triple():
    info = json.loads(run(["swiftc", "-print-target-info"]))
    return info["target"]["triple"]


def extract(module_dir, module, workdir):
    run(extractor() + ["-module-name", module, "-I", module_dir, "-target", target_triple(),
                       "-minimum-access-level", "public", "-output-dir", workdir])
    path = os.path.join(workdir, f"{module}.symbols.json")
    if not os.path.exists(path):
        raise CheckError(f"swift-symbolgraph-extract wrote no {path}")
    return path


def compile_sources(sources, module, workdir):
    # Fixtures are kept as `*.swift.fixture` so SwiftPM does not build them; swiftc wants `.swift`.
    copies = []
    for index, source in enumerate(sources):
        copy = os.path.join(workdir, f"source{index}_{os.path.basename(source).split('.')[0]}.swift")
        try:
            shutil.copyfile(source, copy)
        except OSError as error:
            raise CheckError(f"cannot read {source}: {error}")
        copies.append(copy)
    sources = copies
    run(["swiftc", "-emit-module", "-parse-as-library", "-module-name", module, "-swift-version", "6",
         "-emit-module-path", os.path.join(workdir, f"{module}.swiftmodule")] + sources)
    return workdir


def main(arguments):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--module-dir", help="directory holding the built StoreKit.swiftmodule")
    source.add_argument("--source", nargs="+", help="Swift files to compile as the module and check")
    source.add_argument("--symbol-graph", help="a symbol graph JSON already extracted")
    parser.add_argument("--interface", default=DEFAULT_INTERFACE, help="Apple's interface text")
    parser.add_argument("--module", default="StoreKit")
    options = parser.parse_args(arguments)
    try:
        try:
            with open(options.interface, encoding="utf-8") as file:
                interface = Interface(file.read())
        except OSError as error:
            raise CheckError(f"cannot read Apple's interface: {error}")
        with tempfile.TemporaryDirectory() as workdir:
            if options.symbol_graph:
                graph_path = options.symbol_graph
            elif options.source:
                graph_path = extract(compile_sources(options.source, options.module, workdir), options.module,
                                     workdir)
            else:
                graph_path = extract(options.module_dir, options.module, workdir)
            try:
                with open(graph_path, encoding="utf-8") as file:
                    graph = json.load(file)
            except (OSError, ValueError) as error:
                raise CheckError(f"cannot read the symbol graph {graph_path}: {error}")
    except CheckError as error:
        print(f"check_storekit_standin: {error}", file=sys.stderr)
        return 2
    try:
        checked, mismatches = check(graph, interface)
    except (KeyError, TypeError, AttributeError, IndexError) as error:
        print(f"check_storekit_standin: the symbol graph is not one swift-symbolgraph-extract writes "
              f"(missing or mistyped {error})", file=sys.stderr)
        return 2
    print(f"{checked - len(mismatches)} of {checked} declarations match Apple's StoreKit interface")
    for mismatch in mismatches:
        print(f"  - {mismatch}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
