#!/usr/bin/env python3
"""Leave-one-source-out: for each source of ../shared/data/dice, trains the
face classifier without it (same recipe, same seed; the detector is the
full run's) and scores the Go reader with that model on the source left
out. This is what the table does at a venue whose dice and camera it has
never seen. Run train.py first. With --face-epochs N the classifiers are
trained N epochs instead of train.py's 20 (the report says which): about
6 × (N × 30 s) on 2 cores.

    python3 vision/train/loso.py [--face-epochs N] [SOURCE...]
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(REPO, "..", "shared", "data", "dice")


def main():
    args = sys.argv[1:]
    extra = []
    if args[:1] == ["--face-epochs"]:
        extra, args = args[:2], args[2:]
    sources = args or sorted(d for d in os.listdir(DATA) if os.path.isdir(os.path.join(DATA, d)))
    cache = os.path.join(HERE, "cache")
    out_file = os.path.join(cache, "loso.json")
    results = {}
    if os.path.exists(out_file):
        with open(out_file) as f:
            results = json.load(f)
    for s in sources:
        print(f"== leaving out {s}", flush=True)
        subprocess.run([sys.executable, os.path.join(HERE, "train.py"), "--leave-out", s, "--face-only"] + extra,
                       cwd=REPO, check=True)
        model = os.path.join(cache, f"loso-{s}.onnx")
        score = subprocess.run(["go", "run", "./vision/train/score", "-model", model, s],
                               cwd=REPO, check=True, capture_output=True, text=True).stdout
        results[s] = json.loads(score)[s]
        results[s]["face_epochs"] = int(extra[1]) if extra else 20
        with open(out_file, "w") as f:
            json.dump(results, f, indent=1)
        r = results[s]["crops_40px"]
        print(f"{s}: read {100 * r['read']:.1f}%, wrong {100 * r['wrong']:.2f}% of {r['dice']}", flush=True)


if __name__ == "__main__":
    main()
