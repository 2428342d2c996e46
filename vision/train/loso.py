#!/usr/bin/env python3
"""Leave-one-source-out: for each source of ../shared/data/dice, trains the
face classifier without it (same recipe, same seed; the detector is the
full run's) and scores the Go reader with that model on the source left
out. This is what the table does at a venue whose dice and camera it has
never seen. Run train.py first. With --face-epochs N the classifiers are
trained N epochs instead of train.py's 20 (the report says which): about
6 × (N × 30 s) on 2 cores. With --score-only the models already in cache/
are scored again, without training.

Each left-out source is scored three ways: as the table reads (the model's
threshold); after a venue's teach step of 3 photos of each face of that
source (score -teach 3, the other photos scored); and with every value
accepted, whatever its confidence (how often the network's top face is
right, which the threshold then trades for safety).

    python3 vision/train/loso.py [--face-epochs N | --score-only] [SOURCE...]
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
    train = True
    if args[:1] == ["--face-epochs"]:
        extra, args = args[:2], args[2:]
    elif args[:1] == ["--score-only"]:
        train, args = False, args[1:]
    sources = args or sorted(d for d in os.listdir(DATA) if os.path.isdir(os.path.join(DATA, d)))
    cache = os.path.join(HERE, "cache")
    out_file = os.path.join(cache, "loso.json")
    results = {}
    if os.path.exists(out_file):
        with open(out_file) as f:
            results = json.load(f)
    for s in sources:
        print(f"== leaving out {s}", flush=True)
        if train:
            subprocess.run([sys.executable, os.path.join(HERE, "train.py"), "--leave-out", s, "--face-only"] + extra,
                           cwd=REPO, check=True)
        model = os.path.join(cache, f"loso-{s}.onnx")

        def score(*flags):
            out = subprocess.run(["go", "run", "./vision/train/score", "-model", model] + list(flags) + [s],
                                 cwd=REPO, check=True, capture_output=True, text=True).stdout
            return json.loads(out)[s]

        epochs = results.get(s, {}).get("face_epochs", 20)
        results[s] = score()
        results[s]["face_epochs"] = int(extra[1]) if extra else (20 if train else epochs)
        results[s]["teach3"] = score("-teach", "3")["crops_40px"]
        results[s]["any_confidence"] = score("-min-confidence", "1e-9")["crops_40px"]
        with open(out_file, "w") as f:
            json.dump(results, f, indent=1)
        r = results[s]["crops_40px"]
        print(f"{s}: read {100 * r['read']:.1f}%, wrong {100 * r['wrong']:.2f}% of {r['dice']}", flush=True)


if __name__ == "__main__":
    main()
