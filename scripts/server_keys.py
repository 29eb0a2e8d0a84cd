#!/usr/bin/env python3
"""The keys `tally serve key` printed, one JSON object a line in FILE, for a script that writes a configuration:

    server_keys.py entries FILE      the configuration's `keys` entries (each line without its `key`), comma-joined
    server_keys.py key FILE ROLE     the key of the first entry of ROLE (public, secret or dashboard)
"""
import json
import sys


def main(arguments):
    if len(arguments) == 2 and arguments[0] == "entries":
        lines = [json.loads(line) for line in open(arguments[1]) if line.strip()]
        print(",".join(json.dumps({name: value for name, value in entry.items() if name != "key"}) for entry in lines))
        return 0
    if len(arguments) == 3 and arguments[0] == "key":
        for line in open(arguments[1]):
            if line.strip() and json.loads(line)["role"] == arguments[2]:
                print(json.loads(line)["key"])
                return 0
        print(f"server_keys.py: no {arguments[2]} key in {arguments[1]}", file=sys.stderr)
        return 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
