package vision

import (
	"fmt"
	"image"
	"strconv"
)

// Answer is the kind of answer a [Reader] gives for one image.
type Answer int

// The answers. [Value] carries the face in [Result.Value].
const (
	Unsure Answer = iota // a die may be there but cannot be read safely
	Value                // one die, flat, showing Result.Value
	None                 // no die in the image
	Multi                // more than one die
	Edge                 // the die is not flat (on an edge or leaning)
)

// String returns "unsure", "value", "none", "multi" or "edge".
func (a Answer) String() string {
	switch a {
	case Unsure:
		return "unsure"
	case Value:
		return "value"
	case None:
		return "none"
	case Multi:
		return "multi"
	case Edge:
		return "edge"
	}
	return "Answer(" + strconv.Itoa(int(a)) + ")"
}

// Result is what a [Reader] answers for one image.
type Result struct {
	Answer     Answer
	Value      int             // 1…6 when Answer is Value, else 0
	Confidence float64         // 0…1: how sure the reader is of Answer
	Box        image.Rectangle // the die (or the dice) in image coordinates; empty for None
	Tilt       float64         // tilt of the read face from flat, degrees (estimated)
}

// String returns the answer as the commands print it: "1"…"6" for a
// value, otherwise the answer's name.
func (r Result) String() string {
	if r.Answer == Value {
		return strconv.Itoa(r.Value)
	}
	return r.Answer.String()
}

// Label returns the label of r as used in labels.csv: "1"…"6", "none",
// "multi", "edge" or "unsure".
func (r Result) Label() string { return r.String() }

// ParseLabel parses a label of labels.csv ("1"…"6", "none", "multi",
// "edge", "unsure") into a Result with Confidence 1.
func ParseLabel(s string) (Result, error) {
	switch s {
	case "1", "2", "3", "4", "5", "6":
		return Result{Answer: Value, Value: int(s[0] - '0'), Confidence: 1}, nil
	case "none":
		return Result{Answer: None, Confidence: 1}, nil
	case "multi":
		return Result{Answer: Multi, Confidence: 1}, nil
	case "edge":
		return Result{Answer: Edge, Confidence: 1}, nil
	case "unsure":
		return Result{Answer: Unsure, Confidence: 1}, nil
	}
	return Result{}, fmt.Errorf("label %q: want 1…6, none, multi, edge or unsure", s)
}
