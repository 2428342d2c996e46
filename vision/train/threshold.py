#!/usr/bin/env python3
"""Sets a die model's threshold (the confidence under which a value is
unsure) from the Go reader's answers on the validation split of the photo
sources it was trained on: `go run ./vision/train/score -calibrate`
chooses the lowest confidence keeping wrong values at most 0.2% of those
dice, and this writes it into the model's metadata. train.py runs it after
each training; run it alone to calibrate a model again.

    python3 vision/train/threshold.py MODEL [--leave-out SOURCE]
"""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(REPO, "..", "shared", "data", "dice")


def calibrate(model, leave_out="", data=DATA, max_wrong=0.0):
    """Chooses and writes the threshold; returns score -calibrate's answer."""
    import onnx
    sources = sorted(d for d in os.listdir(data) if os.path.isdir(os.path.join(data, d)) and d != leave_out)
    out = subprocess.run(["go", "run", "./vision/train/score", "-model", os.path.abspath(model), "-data",
                          os.path.abspath(data), "-calibrate", "-max-wrong", str(max_wrong)] + sources,
                         cwd=REPO, check=True, capture_output=True, text=True).stdout
    c = json.loads(out)
    m = onnx.load(model)
    for p in m.metadata_props:
        if p.key == "threshold":
            p.value = f"{c['threshold']:.4f}"
    onnx.save(m, model)
    return c


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model")
    ap.add_argument("--leave-out", default="", help="the source the model was trained without")
    a = ap.parse_args()
    c = calibrate(a.model, a.leave_out)
    print(json.dumps(c, indent=1))


if __name__ == "__main__":
    sys.exit(main())
