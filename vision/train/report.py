#!/usr/bin/env python3
"""Writes vision/train/REPORT.md from the last training run (cache/), the
Go reader's scores with the committed model on every source, and the
leave-one-source-out scores (loso.py).

    python3 vision/train/report.py
"""

import glob
import hashlib
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import data  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(REPO, "..", "shared", "data", "dice")


def data_fingerprint():
    """SHA-256 over every source's labels and annotations and the list of
    its image files with their sizes: the data the model was trained on."""
    h = hashlib.sha256()
    for src in sorted(os.listdir(DATA)):
        d = os.path.join(DATA, src)
        if not os.path.isdir(d):
            continue
        for name in ("labels.csv", "annotations.csv"):
            p = os.path.join(d, name)
            if os.path.exists(p):
                with open(p, "rb") as f:
                    h.update(f.read())
        for p in sorted(glob.glob(os.path.join(d, "**", "*.*"), recursive=True)):
            h.update(f"{os.path.relpath(p, DATA)} {os.path.getsize(p)}\n".encode())
    return h.hexdigest()


def validation_threshold(train):
    """The threshold the validation split chose, as a phrase."""
    v = (train.get("reader_validation") or {}).get("validation_threshold")
    return f"{v:.4f}" if v else "not recorded"


def n_corrections():
    """The corrected labels, as a phrase."""
    n = len(data.corrections())
    return "one" if n == 1 else f"{n}"


# The sources whose photos package vision's pip rules were tuned on.
def go_const(file, name):
    """A constant of the Go reader (vision/learned/FILE), as written there."""
    with open(os.path.join(REPO, "vision", "learned", file)) as f:
        for line in f:
            if line.startswith(f"const {name} = "):
                return line.split("=", 1)[1].strip()
    sys.exit(f"report: no `const {name} = ` in vision/learned/{file}")


def agree_prob():
    """The second witness's gate (vision/learned/read.go)."""
    return go_const("read.go", "agreeProb")


def box_prob():
    """The third witness's gate (vision/learned/witness.go)."""
    return go_const("witness.go", "boxWitnessProb")


PIP_TUNED = ("dice3_roboflow_v3", "matteop65_wood", "tomitomi3_gray128")


def pct(v):
    return f"{100 * v:.1f}%"


def multi(r):
    """The share of frames of several dice answered multi, or – without any."""
    return pct(r["multi_rate"]) if r and r.get("multi") else "–"


def reproduced(train, msum):
    """Whether the run behind train.json wrote the committed model."""
    wrote = train.get("model_sha256")
    if not wrote:
        return "(that run did not record its model's SHA-256)"
    if wrote == msum:
        return "(the run behind this report gave back the committed model byte for byte)"
    return (f"(the run behind this report wrote another model, SHA-256 `{wrote}`; the README says how much "
            "training on another machine has moved the figures)")


def main():
    cache = os.path.join(HERE, "cache")
    with open(os.path.join(cache, "train.json")) as f:
        train = json.load(f)
    model = os.path.join(REPO, "vision", "learned", "model", "dice.onnx")
    with open(model, "rb") as f:
        msum = hashlib.sha256(f.read()).hexdigest()
    sources = sorted(d for d in os.listdir(DATA) if os.path.isdir(os.path.join(DATA, d)))
    score = json.loads(subprocess.run(["go", "run", "./vision/train/score"] + sources, cwd=REPO, check=True,
                                      capture_output=True, text=True).stdout)
    loso = {}
    if os.path.exists(os.path.join(cache, "loso.json")):
        with open(os.path.join(cache, "loso.json")) as f:
            loso = json.load(f)
    m = train["meta"]
    L = []
    L.append("# The die recogniser's training report\n")
    L.append("Written by `vision/train/report.py` after `vision/train/train.py` (and `loso.py`).\n")
    L.append(f"- model: `vision/learned/model/dice.onnx`, {os.path.getsize(model)} bytes, SHA-256 `{msum}`")
    L.append(f"- data: `../shared/data/dice`, fingerprint `{data_fingerprint()}` (SHA-256 of every "
             "source's labels and annotations and of its files' names and sizes; the folder has no VCS commit)")
    L.append(f"- labels: as the sources give them, but for {n_corrections()} that the photo proves wrong, "
             "corrected in training, calibration and scoring alike "
             "(`vision/internal/dicedata/corrections.csv` names each and says why)")
    L.append(f"- trained on: {m['trained_on'].replace(',', ', ')}; seed {m['seed']}; "
             f"{train['seconds'] / 60:.1f} minutes on this machine (2 cores, no GPU)")
    L.append(f"- calibration: temperature {m['temperature']}, threshold {m['threshold']} "
             "(chosen by threshold.py: the lowest confidence at which the Go reader gives no wrong value on the photos' "
             f"validation split, {validation_threshold(train)}, raised if need be until no source's crops of dice "
             "≥40 px get over 0.2% wrong values as the table reads them; the validation table's read and wrong are at the "
             "classifier's own threshold, chosen on every validation die, renders included)")
    L.append("- second witness: where the classifier is unsure of a die (its confidence under the threshold) "
             f"but leans to a face with at least {agree_prob()}, the pip rules of package vision (straight down and, "
             "without a calibration, oblique) settle it when they read that face on the same die "
             "(vision/learned, `agreeProb`); where they do not, and it leans to its face with at least "
             f"{box_prob()}, a third witness counts that face's pips in the die's box alone (`boxWitnessProb`, "
             "`witness.go`); and a value the classifier is sure of is unsure where the pip rules read the same "
             "die as another face (`contradicts`); the tables below read so unless they say \"networks alone\"\n")
    L.append("## Validation split (15% of each source's frames, never trained on): the classifier alone\n")
    L.append("| source | dice | top-1 | read | wrong |")
    L.append("|---|---:|---:|---:|---:|")
    for s, v in sorted(train["validation"].items()):
        L.append(f"| {s} | {v['dice']} | {pct(v['top1'])} | {pct(v['read'])} | {100 * v['wrong']:.2f}% |")
    L.append("\n## The Go reader with this model on every labelled image (training data included)\n")
    L.append("| source | crops ≥40 px: read | wrong | all crops: wrong | frames: wrong | multi frames ≥40 px: multi | ms/crop (wall clock while scoring on a shared machine; the README's benchmarks give the speed) |")
    L.append("|---|---:|---:|---:|---:|---:|---:|")
    for s in sources:
        v = score[s]
        mf = v["multi_40px"]
        L.append(f"| {s} | {pct(v['crops_40px']['read'])} | {100 * v['crops_40px']['wrong']:.2f}% | "
                 f"{100 * v['crops']['wrong']:.2f}% | {100 * v['frames']['wrong']:.2f}% | "
                 f"{multi(mf)} | {v['crops']['ms_per_image']:.1f} |")
    if loso:
        L.append("\n## Leave one source out: a venue never seen\n")
        L.append("Each row: the networks trained without that source (same recipe and seed, the classifier "
                 "for the epochs given; the detector trained without it too, or, where the row says \"full run\", "
                 "the full run's, which has seen the source's frames), the Go reader scored on the source left "
                 "out: as the table reads (the pip rules the second witness of a die the classifier is unsure "
                 "of), and with the networks alone (`score -network-only`).\n")
        L.append(f"The pip rules, the second witness, were tuned on the photos of {', '.join(PIP_TUNED)}: the "
                 "witness's figures there flatter it, and the others' are the honest ones.")
        alone_only = [s for s in sources if s in loso and "crops_40px" not in loso[s]]
        if alone_only:
            L.append(f"Scored with the networks alone only, before the second witness: {', '.join(alone_only)}.")
        L.append("")
        L.append("| left out | classifier epochs | detector | crops ≥40 px | read | wrong | networks alone: read | wrong | all crops: read | wrong | multi frames ≥40 px: multi |")
        L.append("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for s in sources:
            v = loso.get(s)
            if v is not None and "crops_40px" not in v:
                # scored with the networks alone, before the second witness
                n = v["network_only"]
                L.append(f"| {s} | {v.get('face_epochs', 16)} | {v.get('detector', 'full run')} | {n['dice']} | "
                         f"not measured | – | {pct(n['read'])} | {100 * n['wrong']:.2f}% | – | – | – |")
            elif s in loso:
                v = loso[s]
                n = v.get("network_only")
                alone = f"{pct(n['read'])} | {100 * n['wrong']:.2f}%" if n else "– | –"
                L.append(f"| {s} | {v.get('face_epochs', 16)} | {v.get('detector', 'full run')} | "
                         f"{v['crops_40px']['dice']} | {pct(v['crops_40px']['read'])} | "
                         f"{100 * v['crops_40px']['wrong']:.2f}% | {alone} | {pct(v['crops']['read'])} | "
                         f"{100 * v['crops']['wrong']:.2f}% | {multi(v.get('multi_40px'))} |")
        if any("teach3" in v for v in loso.values()):
            L.append("\nThe same models on the crops ≥40 px of the source left out: after the venue's teach step "
                     "(3 photos of each face of that source taught, `score -teach 3`; those photos are not scored), "
                     "and with the networks alone, every value accepted whatever its confidence (how often the "
                     "network's top face is right or wrong before the threshold and the witnesses trade reads for "
                     "safety).\n")
            L.append("| left out | taught: read | wrong | any confidence: right | wrong |")
            L.append("|---|---:|---:|---:|---:|")
            for s in sources:
                v = loso.get(s, {})
                t = v.get("teach3") or v.get("teach3_network_only")
                if t:
                    a = v["any_confidence"]
                    alone = " (networks alone)" if "teach3" not in v else ""
                    L.append(f"| {s} | {pct(t['read'])}{alone} | {100 * t['wrong']:.2f}% | {pct(a['read'])} | "
                             f"{100 * a['wrong']:.2f}% |")
    L.append("\n## Reproducing\n")
    L.append(f"`python3 vision/train/train.py` renders the synthetic frames, cuts every source, trains both networks "
             f"and writes the model, with fixed seeds, in about {train['seconds'] / 60:.0f} minutes on 2 cores "
             f"{reproduced(train, msum)}. "
             "The validation split hashes each frame's path relative "
             "to `../shared/data/dice` (the renders' relative to their folder, under `synth/`), so every checkout "
             "draws the same 15%. Then `python3 vision/train/loso.py --threads 1 SOURCE…` (two runs of three "
             "sources side by side, both networks trained as the committed ones, without the source) and "
             "`python3 vision/train/report.py`.")
    with open(os.path.join(HERE, "REPORT.md"), "w") as f:
        f.write("\n".join(L) + "\n")
    print("\n".join(L))


if __name__ == "__main__":
    main()
