"""Runs schemathesis (all of its default checks and phases) against a fresh demo market per v2
flavour and adds up the requests it generated."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.environ.get("OPENMARKET_BINARY", os.path.join(ROOT, ".build", "debug", "openmarket"))
SCHEMATHESIS = os.path.join(ROOT, ".build", "fuzz-venv", "bin", "st")
FLAVOURS = ["market-training", "openmarket"]
MINIMUM_REQUESTS = 5000
EXAMPLES_PER_OPERATION = os.environ.get("OPENMARKET_FUZZ_EXAMPLES", "150")


def serve(flavour, directory):
    """Starts a demo market and returns the process and its base URL once it listens."""
    process = subprocess.Popen(
        [BINARY, "serve", "--demo", "--host", "127.0.0.1", "--port", "0", "--data-dir", directory,
         "--v2-flavor", flavour],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    log = []
    for line in process.stdout:
        log.append(line)
        found = re.search(r"Open Market is open at (http://[0-9.]+:\d+)", line)
        if found:
            threading.Thread(target=lambda: [log.append(l) for l in process.stdout], daemon=True).start()
            return process, found.group(1), log
    raise RuntimeError("the market did not start:\n" + "".join(log))


def fuzz(flavour):
    """Runs schemathesis against one flavour; returns (passed, generated requests)."""
    directory = tempfile.mkdtemp(prefix="openmarket-fuzz-")
    process, url, log = serve(flavour, directory)
    try:
        run = subprocess.run(
            [SCHEMATHESIS, "run", url + "/openapi.json", "--max-examples", EXAMPLES_PER_OPERATION,
             "--no-color", "--seed", "20261122", "--generation-database", "none"],
            capture_output=True, text=True)
        output = run.stdout + run.stderr
        print(output)
        generated = re.search(r"(\d+) generated", output)
        server_failures = [line for line in log if "unexpected failure" in line]
        if server_failures:
            print("the server logged unexpected failures:\n" + "".join(server_failures))
        return run.returncode == 0 and not server_failures, int(generated.group(1)) if generated else 0
    finally:
        process.terminate()
        process.wait(timeout=60)
        shutil.rmtree(directory, ignore_errors=True)


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
