// Package vision recognises the die in the tray camera's frames.
//
// A [Reader] reads one image: it finds the pips (dark on light or light on
// dark), groups them into faces, checks each face against the six pip
// patterns, and answers the top face 1…6, [None], [Multi], [Edge] or
// [Unsure], with a confidence and the die's box. When in doubt it answers
// [Unsure]: a wrong value accepted corrupts the game, a repeated throw does
// not.
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
