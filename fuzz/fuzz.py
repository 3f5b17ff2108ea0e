"""Runs schemathesis (all of its default checks and phases) against a fresh demo market per v2
flavour and adds up the requests it generated."""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "e2e"))
from market import Market  # noqa: E402  (the browser tests' market, started the same way)
BINARY = os.environ.get("OPENMARKET_BINARY", os.path.join(ROOT, ".build", "debug", "openmarket"))
SCHEMATHESIS = os.path.join(ROOT, ".build", "fuzz-venv", "bin", "st")
FLAVOURS = ["market-training", "openmarket"]
MINIMUM_REQUESTS = 5000
EXAMPLES_PER_OPERATION = os.environ.get("OPENMARKET_FUZZ_EXAMPLES", "150")


def fuzz(flavour):
    """Runs schemathesis against one flavour; returns (passed, generated requests)."""
    market = Market(BINARY, ["--v2-flavor", flavour])
    try:
        run = subprocess.run(
            [SCHEMATHESIS, "run", market.url + "/openapi.json", "--max-examples", EXAMPLES_PER_OPERATION,
             "--no-color", "--seed", "20261122", "--generation-database", "none"],
            capture_output=True, text=True)
        output = run.stdout + run.stderr
        print(output)
        generated = re.search(r"(\d+) generated", output)
        server_failures = [line for line in market.log if "unexpected failure" in line]
        if server_failures:
            print("the server logged unexpected failures:\n" + "".join(server_failures))
        return run.returncode == 0 and not server_failures, int(generated.group(1)) if generated else 0
    finally:
        market.stop()


def main():
    results = {flavour: fuzz(flavour) for flavour in FLAVOURS}
    total = sum(generated for _, generated in results.values())
    for flavour, (passed, generated) in results.items():
        print(f"{flavour}: {generated} requests, {'passed' if passed else 'FAILED'}")
    print(f"in all: {total} generated requests (at least {MINIMUM_REQUESTS} needed)")
    if not all(passed for passed, _ in results.values()) or total < MINIMUM_REQUESTS:
        sys.exit(1)


if __name__ == "__main__":
    main()
