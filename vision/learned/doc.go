// Package learned is the die recogniser that learns what a die's top face
// looks like, to read dice of cameras, dice and light it has never seen.
// It is the table's reader (camera.reader: learned, the default):
// vision/train/REPORT.md has its figures, at the venues of the project's
// photos and at venues it never saw; `parchis dice read` tries it, and the
// training in vision/train improves it.
//
// A [Reader] reads one image, a crop of one die or a whole frame, seen
// straight down or from the side: a small network (the detector) marks
// each die's centre and size; each die found is looked at again at its
// own scale, cut as a square around its box, and a second network (the
// face classifier) reads it, as is and mirrored, as 1…6, a die on an
// edge, or no die; two or more dice are Multi, a cup or a pile of dice
// the detector takes for one die included. The answer is a
// [vision.Result]: a value when the calibrated confidence reaches the
// threshold chosen on validation (no wrong value there, and no photo
// source over 0.2% wrong values as the table reads it), or when
// the classifier, unsure, leans to a face that a second witness, the pip
// rules of package vision, reads too, or, where it leans to it surely, a
// third: the face's pips counted in the die's box. A value the pip rules
// contradict, reading the same die as another face, is Unsure. Both
// networks are one ONNX file ([Model]), built in and replaceable, run by
// package vision/onnx in pure Go. A [Profile], taught from a few labelled
// photos of a venue's dice, adapts the reader to them without retraining.
package learned
