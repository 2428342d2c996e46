// Package vision recognises the die in the tray camera's frames.
//
// A [Reader] reads one image, a crop of one die or a whole frame, seen
// straight down or from the side: a small network (the detector) marks
// each die's centre and size; each die found is cut as a square around
// its box and a second network (the face classifier) reads it as 1…6, a
// die on an edge, or no die. The answer is the top face 1…6, [None],
// [Multi], [Edge] or [Unsure], with a calibrated confidence and the die's
// box. When in doubt it answers [Unsure]: a wrong value accepted corrupts
// the game, a repeated throw does not. Both networks are one ONNX file
// ([Model]), built in and replaceable, run by package vision/onnx in pure
// Go. A [Profile], taught from a few labelled photos of a venue's dice,
// adapts the reader to them without retraining.
//
// A [Watcher] watches a stream of frames: it reports a throw once the die
// has tumbled and then rested for a while, a die that appears or turns
// without tumbling as suspicious, and edge or missing dice as a rethrow.
//
// A Reader and a Watcher keep scratch buffers between calls and are not
// safe for concurrent use.
//
// Frame sources live in package vision/source, the synthetic renderer in
// vision/synth, the training of the networks in vision/train.
package vision
