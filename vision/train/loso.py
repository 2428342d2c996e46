#!/usr/bin/env python3
"""Leave-one-source-out: for each source of ../shared/data/dice, trains both
networks without it (same recipe, same seed: neither the detector nor the
classifier has seen a frame of it) and scores the Go reader with that model
on the source left out. This is what the table does at a venue whose dice
and camera it has never seen. With --face-only only the classifier is
trained again and the detector is the last full run's (train.py first),
which has seen the source: quicker, and less honest. With --face-epochs N
the classifiers are trained N epochs instead of train.py's 24 (the report
says which), with --threads N each training takes N threads (two runs of
three sources each then share 2 cores). With --score-only the models
already in cache/ are scored again, without training, their thresholds
chosen again first (threshold.py, as training ends), since the Go reader
they are chosen with may have changed.

Each left-out source is scored four ways: as the table reads (the model's
threshold, the pip rules the second witness of a die the classifier is
unsure of); with the networks alone (score -network-only); after a
venue's teach step of 3 photos of each face of that source (score -teach
3, the other photos scored); and with the networks alone, every value
accepted whatever its confidence (how often the network's top face is
right, which the threshold and the witnesses then trade for safety).

    python3 vision/train/loso.py [--face-only] [--face-epochs N] [--threads N] [--score-only] [SOURCE...]
"""

import json
import os
import subprocess
import sys

import threshold

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(REPO, "..", "shared", "data", "dice")


def main():
    args = sys.argv[1:]
    extra = []
    train = True
    face_only = False
    while args[:1] and args[0].startswith("--"):
        if args[0] in ("--face-epochs", "--threads"):
            extra, args = extra + args[:2], args[2:]
        elif args[0] == "--score-only":
            train, args = False, args[1:]
        elif args[0] == "--face-only":
            face_only, args = True, args[1:]
        else:
            sys.exit(f"loso: unknown flag {args[0]}")
    epochs = int(extra[extra.index("--face-epochs") + 1]) if "--face-epochs" in extra else 24
    sources = args or sorted(d for d in os.listdir(DATA) if os.path.isdir(os.path.join(DATA, d)))
    cache = os.path.join(HERE, "cache")
    out_file = os.path.join(cache, "loso.json")
    for s in sources:
        print(f"== leaving out {s}", flush=True)
        if train:
            subprocess.run([sys.executable, os.path.join(HERE, "train.py"), "--leave-out", s]
                           + (["--face-only"] if face_only else []) + extra, cwd=REPO, check=True)
        model = os.path.join(cache, f"loso-{s}.onnx")
        if not train:
            c = threshold.calibrate(model, s)
            print(f"threshold {c['written']}", flush=True)

        def score(*flags):
            out = subprocess.run(["go", "run", "./vision/train/score", "-model", model] + list(flags) + [s],
                                 cwd=REPO, check=True, capture_output=True, text=True).stdout
            return json.loads(out)[s]

        r = score()
        r["network_only"] = score("-network-only")["crops_40px"]
        r["teach3"] = score("-teach", "3")["crops_40px"]
        r["any_confidence"] = score("-network-only", "-min-confidence", "1e-9")["crops_40px"]
        # read again just before writing: several runs (one source each)
        # may share the file
        results = {}
        if os.path.exists(out_file):
            with open(out_file) as f:
                results = json.load(f)
        # scored again only: the epochs the model was trained, as given or
        # as the last report said
        given = train or "--face-epochs" in extra
        r["face_epochs"] = epochs if given else results.get(s, {}).get("face_epochs", epochs)
        r["detector"] = ("full run" if face_only else "without it") if train else \
            results.get(s, {}).get("detector", "full run")
        results[s] = r
        with open(out_file + ".tmp", "w") as f:
            json.dump(results, f, indent=1)
        os.replace(out_file + ".tmp", out_file)
        c = r["crops_40px"]
        print(f"{s}: read {100 * c['read']:.1f}%, wrong {100 * c['wrong']:.2f}% of {c['dice']}", flush=True)


if __name__ == "__main__":
    main()
