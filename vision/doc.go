// Package vision holds what the tray camera's die readers share: the
// answers ([Result]), the labels and tallies they are scored with, the
// camera's calibration, the at-rest watcher, and the pip rules.
//
// The pip rules ([Reader]) read one image: they find the pips (dark on
// light or light on dark), group them into faces, check each face against
// the six pip patterns, and answer the top face 1…6, [None], [Multi],
// [Edge] or [Unsure], with a confidence and the die's box. They are no
// reader of the table's on their own: the table reads with package
// vision/learned, for which they are the second witness of a die its
// classifier is unsure of and, with a calibration, the judge of a die on
// an edge. Rules that served only a reader standing alone were measured
// and removed (docs/camera.md, "The pip rules, as a witness").
//
// A [Watcher] watches a stream of frames: it reports a throw once the die
// has tumbled and then rested for a while, a die that appears or turns
// without tumbling as suspicious, and edge or missing dice as a rethrow.
//
// Images are worked on as [image.Gray] buffers (Pix, Stride, Rect) without
// copies; other images are converted to grey once. A Reader and a Watcher
// keep scratch buffers between calls and are not safe for concurrent use.
//
// Frame sources live in package vision/source, the synthetic renderer in
// vision/synth.
package vision
