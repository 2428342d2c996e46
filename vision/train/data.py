"""Loading the labelled dice photos and the synthetic renders.

Every die becomes a sample cut the way the Go reader cuts it
(vision/crop.go): a square centred on the die's box, of side CONTEXT times
the box's longer side, resized to CTX_PX pixels. Training crops the middle
FACE_SCALE / CONTEXT of it, after augmentation, to the network's input.
Detector tiles are whole frames scaled so that the dice are as big as the
detector sees them at one of its scales. A label that the photo proves
wrong is read as vision/internal/dicedata/corrections.csv corrects it, as
the Go tests and scoring read it.
"""

import csv
import functools
import hashlib
import io
import os
import random

import numpy as np
from PIL import Image

# The reader's crop: the die's box grown to FACE_SCALE times its longer side
# (the photos' crops grow the box by 15% a side), resized to FACE_PX.
FACE_SCALE = 1.3
FACE_PX = 48
# The training samples keep more context, for rotations and shifts.
CONTEXT = 2.0
CTX_PX = int(round(FACE_PX * CONTEXT / FACE_SCALE))  # 62

CLASSES = ["1", "2", "3", "4", "5", "6", "edge", "none"]
NONE = CLASSES.index("none")
EDGE = CLASSES.index("edge")

# Detector geometry: the network's output stride, the scale of its finest
# pass (1/4 of the image), the die sizes it is trained to see at its input.
DET_STRIDE = 8
DET_TILE = 96
DET_MIN, DET_MAX = 6.0, 32.0


def stable_hash(s):
    return int(hashlib.sha1(s.encode()).hexdigest()[:8], 16)


def is_val(path, root, synth_dir):
    """A fixed 15% of every source's frames is kept for validation: the
    frame's path relative to the data's folder (synthetic ones under
    synth/) is hashed, so that every checkout draws the same frames."""
    if synth_dir and os.path.abspath(path).startswith(os.path.abspath(synth_dir) + os.sep):
        key = "synth/" + os.path.relpath(path, synth_dir)
    else:
        key = os.path.relpath(path, root)
    return stable_hash(key.replace(os.sep, "/")) % 100 < 15


class Frames:
    """A small cache of decoded frames (RGB uint8 arrays)."""

    def __init__(self, limit=64):
        self.cache = {}
        self.limit = limit

    def get(self, path):
        im = self.cache.get(path)
        if im is None:
            im = np.asarray(Image.open(path).convert("RGB"))
            if len(self.cache) >= self.limit:
                self.cache.pop(next(iter(self.cache)))
            self.cache[path] = im
        return im


def square_crop(img, cx, cy, side, out_px):
    """The square of the given side centred on (cx, cy), edge-padded where
    it leaves the image, resized (antialiased) to out_px."""
    h, w = img.shape[:2]
    x0, y0 = int(round(cx - side / 2)), int(round(cy - side / 2))
    s = max(2, int(round(side)))
    pad = max(0, -x0, -y0, x0 + s - w, y0 + s - h)
    if pad:
        img = np.pad(img, ((pad, pad), (pad, pad), (0, 0)), mode="edge")
        x0 += pad
        y0 += pad
    part = img[y0:y0 + s, x0:x0 + s]
    return np.asarray(Image.fromarray(part).resize((out_px, out_px), Image.BILINEAR))


def tomitomi_box(img):
    """The die's box in a tomitomi3 image (one white die in a grey cup,
    straight down; the source has no boxes): the bounds of the largest
    bright blob nearest the middle, or None where that blob is not the
    size and shape of the die (lit unevenly, part of the die is dark): such
    images are left out of training, never given a guessed box."""
    g = img.mean(axis=2)
    h, w = g.shape
    c = g[h // 4:3 * h // 4, w // 4:3 * w // 4]
    thr = 0.5 * np.percentile(c, 99) + 0.5 * np.median(c)
    m = g > thr
    seen = np.zeros_like(m)
    best = None
    for sy, sx in zip(*np.nonzero(m)):
        if seen[sy, sx]:
            continue
        stack, pts = [(sy, sx)], []
        seen[sy, sx] = True
        while stack:
            y, x = stack.pop()
            pts.append((y, x))
            for ny, nx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
                if 0 <= ny < h and 0 <= nx < w and m[ny, nx] and not seen[ny, nx]:
                    seen[ny, nx] = True
                    stack.append((ny, nx))
        p = np.array(pts)
        cy, cx = p.mean(axis=0)
        score = len(pts) - 0.05 * len(pts) * np.hypot(cx - w / 2, cy - h / 2) / w
        if best is None or score > best[0]:
            best = (score, p)
    if best is None or len(best[1]) < 50:
        return None
    p = best[1]
    (y0, x0), (y1, x1) = p.min(axis=0), p.max(axis=0)
    bw, bh = x1 + 1 - x0, y1 + 1 - y0
    # a blob of a die's size and squareness, filled as a die's face is
    # (pips are holes); otherwise the light cut the die: no box
    # (the fill counts the die's rows from end to end, the pips included:
    # the large pips of a five or a six leave less than half of a turned
    # die's box lit, and such photos are as clean as any)
    rows = {}
    for y, x in p:
        lo, hi = rows.get(y, (x, x))
        rows[y] = (min(lo, x), max(hi, x))
    filled = sum(hi + 1 - lo for lo, hi in rows.values())
    if not (40 <= bw <= 95 and 40 <= bh <= 95 and abs(bw - bh) <= 12 and filled > 0.45 * bw * bh):
        return None
    return float(x0), float(y0), float(x1 + 1), float(y1 + 1)


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


# Labels that the photo itself proves wrong, and the labels it shows: the
# same file the Go tests and scoring read (vision/internal/dicedata).
CORRECTIONS_FILE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "internal", "dicedata", "corrections.csv")


@functools.lru_cache(maxsize=None)
def corrections():
    """{(source, file as labels.csv names it): (label, was)}."""
    with open(CORRECTIONS_FILE, newline="") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    return {(r["source"], r["file"]): (r["label"], r["was"]) for r in rows}


def corrected(name, file, label):
    """The label of a source's file, corrected where corrections.csv says
    the photo shows another; a correction whose 'was' is not the label is
    an error (the photos changed)."""
    c = corrections().get((name, file))
    if c is None:
        return label
    if label != c[1]:
        raise ValueError(f"{name}/{file} is labelled {label!r}, not {c[1]!r} as {CORRECTIONS_FILE} says")
    return c[0]


def source_boxes(root, name, faces_only_cropped=False):
    """Every labelled frame of a source with all its boxes: a list of
    (frame path, [(x0, y0, x1, y1, label)]), label '1'…'6', 'edge' or '' (a
    die whose face is not known or not a pip d6: counted, not read).
    Frames without boxes in a 'none' row have an empty list. With
    faces_only_cropped, a box the source did not cut a crop for (dice in
    piles of more than 5 to 15, under 24 px, or unclear) keeps no face."""
    d = os.path.join(root, name)
    frames = {}
    ann = os.path.join(d, "annotations.csv")
    if os.path.exists(ann):
        for r in read_csv(ann):
            f = os.path.join(d, r["frame"])
            frames.setdefault(f, [])
            if r.get("xmin", "") == "":
                continue
            lab = corrected(name, r["crop"], r["label"]) if r.get("crop") else r["label"]
            lab = lab if lab in CLASSES[:7] else ""
            if faces_only_cropped and "crop" in r and not r["crop"]:
                lab = ""
            frames[f].append((float(r["xmin"]), float(r["ymin"]), float(r["xmax"]), float(r["ymax"]), lab))
    lab = os.path.join(d, "labels.csv")
    if os.path.exists(lab):
        for r in read_csv(lab):
            f = os.path.join(d, r["file"])
            if r["label"] == "none":
                frames.setdefault(f, [])
    return frames


def single_images(root, name):
    """Images that are one die each with no boxes: tomitomi3's 128×128
    photos (box found in the image) and skovy's own crops (its detector's
    box grown by 10 px). A list of (path, box or None, label)."""
    d = os.path.join(root, name)
    out = []
    if not os.path.exists(os.path.join(d, "labels.csv")):
        return out
    for r in read_csv(os.path.join(d, "labels.csv")):
        if not r["file"].startswith("images/") or r["label"] not in CLASSES[:6]:
            continue
        out.append((os.path.join(d, r["file"]), None, corrected(name, r["file"], r["label"])))
    return out


# Sources photographed straight down: a die there may lie at any rotation.
# The others are seen from the side, the photo held upright: which face is
# on top shows by where it lies in the image, and a training sample must
# keep that (it is turned a little only).
TOP_DOWN = {"tomitomi3_gray128", "banachowicz_rpgsets"}


def load_samples(root, sources, synth_dir, rng):
    """Face samples: (ctx uint8 CTX_PX×CTX_PX×3, class, source, is_val,
    upright)."""
    frames = Frames()
    xs, ys, srcs, vals, ups = [], [], [], [], []
    views = {}
    if synth_dir:
        for r in read_csv(os.path.join(synth_dir, "annotations.csv")):
            views[os.path.join(synth_dir, r["frame"])] = float(r["view"] or 0)

    def add(img, box, cls, src, key):
        x0, y0, x1, y1 = box
        side = CONTEXT * max(x1 - x0, y1 - y0)
        xs.append(square_crop(img, (x0 + x1) / 2, (y0 + y1) / 2, side, CTX_PX))
        ys.append(cls)
        srcs.append(src)
        vals.append(is_val(key, root, synth_dir))
        ups.append(views.get(key, 0) >= 10 if src == "synth" else src not in TOP_DOWN)

    allsrc = list(sources) + (["synth"] if synth_dir else [])
    for src in allsrc:
        root_s = synth_dir if src == "synth" else os.path.join(root, src)
        boxes = source_boxes(os.path.dirname(root_s), os.path.basename(root_s), faces_only_cropped=True)
        for f, bs in boxes.items():
            img = frames.get(f)
            h, w = img.shape[:2]
            for (x0, y0, x1, y1, lab) in bs:
                if lab == "" or min(x1 - x0, y1 - y0) < 12:
                    continue
                add(img, (x0, y0, x1, y1), CLASSES.index(lab), src, f)
            # a few patches of bare background: 'none'
            sizes = [max(b[2] - b[0], b[3] - b[1]) for b in bs] or [min(h, w) / 4]
            for _ in range(2 if bs else 6):
                s = rng.choice(sizes) * rng.uniform(0.8, 1.3)
                if s >= min(h, w):
                    continue
                cx, cy = rng.uniform(s / 2, w - s / 2), rng.uniform(s / 2, h - s / 2)
                if any(abs(cx - (b[0] + b[2]) / 2) < (s + b[2] - b[0]) * 0.6 and
                       abs(cy - (b[1] + b[3]) / 2) < (s + b[3] - b[1]) * 0.6 for b in bs):
                    continue
                add(img, (cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2), NONE, src, f)
        for f, box, lab in single_images(root, src) if src != "synth" else []:
            img = frames.get(f)
            h, w = img.shape[:2]
            if src == "tomitomi3_gray128":
                box = tomitomi_box(img)
                if box is None:
                    continue
            else:
                box = (10, 10, w - 10, h - 10)
            add(img, box, CLASSES.index(lab), src, f)
    return np.stack(xs), np.array(ys, dtype=np.int64), np.array(srcs), np.array(vals), np.array(ups)


def det_tiles(root, sources, synth_dir, rng, per_frame=2):
    """Detector tiles: (tile uint8 DET_TILE²×3, boxes in tile px as an
    array of (cx, cy, side)), each frame scaled so that its dice measure
    DET_MIN…DET_MAX px, then cut at random to DET_TILE (edge-padded)."""
    frames = Frames()
    tiles, targets, srcs, vals = [], [], [], []
    allsrc = list(sources) + (["synth"] if synth_dir else [])
    for src in allsrc:
        root_s = synth_dir if src == "synth" else os.path.join(root, src)
        items = []
        for f, bs in source_boxes(os.path.dirname(root_s), os.path.basename(root_s)).items():
            items.append((f, [b[:4] for b in bs]))
        if src != "synth":
            for f, box, lab in single_images(root, src):
                img = frames.get(f)
                h, w = img.shape[:2]
                box = tomitomi_box(img) if src == "tomitomi3_gray128" else (10, 10, w - 10, h - 10)
                if box is not None:
                    items.append((f, [box]))
        # the photos' own crops: one die in the middle, neighbours cut
        d = os.path.join(root, src)
        if src != "synth" and os.path.exists(os.path.join(d, "annotations.csv")):
            for r in read_csv(os.path.join(d, "annotations.csv")):
                if r.get("crop"):
                    p = os.path.join(d, r["crop"])
                    if rng.random() < 0.5 and os.path.exists(p):
                        w0 = float(r["xmax"]) - float(r["xmin"])
                        h0 = float(r["ymax"]) - float(r["ymin"])
                        items.append((p, [(0.15 * w0, 0.15 * h0, 1.15 * w0, 1.15 * h0)]))
        for f, bs in items:
            img = frames.get(f)
            h, w = img.shape[:2]
            sides = [max(b[2] - b[0], b[3] - b[1]) for b in bs if b[2] - b[0] >= 12]
            for _ in range(per_frame):
                if sides:
                    want = rng.uniform(DET_MIN + 1, DET_MAX - 4)
                    scale = want / float(np.median(sides))
                else:
                    scale = rng.uniform(0.1, 0.4)
                sw, sh = max(8, int(w * scale)), max(8, int(h * scale))
                small = np.asarray(Image.fromarray(img).resize((sw, sh), Image.BILINEAR))
                ox = rng.randint(min(0, sw - DET_TILE), max(0, sw - DET_TILE))
                oy = rng.randint(min(0, sh - DET_TILE), max(0, sh - DET_TILE))
                tile = np.zeros((DET_TILE, DET_TILE, 3), np.uint8)
                padded = np.pad(small, ((DET_TILE, DET_TILE), (DET_TILE, DET_TILE), (0, 0)), mode="edge")
                tile[:] = padded[oy + DET_TILE:oy + 2 * DET_TILE, ox + DET_TILE:ox + 2 * DET_TILE]
                t = []
                for (x0, y0, x1, y1) in bs:
                    cx, cy = (x0 + x1) / 2 * scale - ox, (y0 + y1) / 2 * scale - oy
                    side = max(x1 - x0, y1 - y0) * scale
                    # a die counts where its centre lies in the image
                    inside = 0 <= (x0 + x1) / 2 < w and 0 <= (y0 + y1) / 2 < h
                    if inside and 0 <= cx < DET_TILE and 0 <= cy < DET_TILE:
                        t.append((cx, cy, side))
                tiles.append(tile)
                targets.append(np.array(t, np.float32).reshape(-1, 3))
                srcs.append(src)
                vals.append(is_val(f, root, synth_dir))
    return np.stack(tiles), targets, np.array(srcs), np.array(vals)


def jpeg(img, quality):
    b = io.BytesIO()
    Image.fromarray(img).save(b, format="JPEG", quality=quality)
    b.seek(0)
    return np.asarray(Image.open(b).convert("RGB"))


def seed_all(seed):
    random.seed(seed)
    np.random.seed(seed)
