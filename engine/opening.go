package engine

import "fmt"

// OpeningThrow is one throw of the opening (RULES.md §2).
type OpeningThrow struct {
	Colour Colour
	Value  int
}

// Starter decides who starts from the opening throws, in the order thrown
// (RULES.md §2): every player throws once and the highest starts; players
// tied on the highest throw again among themselves until one is highest.
// It returns an error naming the first throw out of place, or saying who
// still has to throw.
func Starter(throws []OpeningThrow) (Colour, error) {
	var (
		in    [NumColours]bool // still in contention this round
		done  [NumColours]bool // has thrown this round
		value [NumColours]int
	)
	for i := range in {
		in[i] = true
	}
	left := NumColours // throws still due this round
	for i, t := range throws {
		if t.Colour >= NumColours || t.Value < 1 || t.Value > 6 {
			return 0, fmt.Errorf("opening throw %d: bad colour or value", i+1)
		}
		if !in[t.Colour] {
			return 0, fmt.Errorf("opening throw %d: %s is not throwing now", i+1, t.Colour.Name())
		}
		if done[t.Colour] {
			return 0, fmt.Errorf("opening throw %d: %s has already thrown in this round", i+1, t.Colour.Name())
		}
		if left == 0 {
			return 0, fmt.Errorf("opening throw %d: the starter is already decided", i+1)
		}
		done[t.Colour], value[t.Colour] = true, t.Value
		if left--; left > 0 {
			continue
		}
		// The round is complete: keep those tied on the highest throw.
		best := 0
		for c := range in {
			if in[c] {
				best = max(best, value[c])
			}
		}
		for c := range in {
			in[c] = in[c] && value[c] == best
			done[c] = false
			if in[c] {
				left++
			}
		}
		if left == 1 {
			left = 0
		}
	}
	if left == 0 {
		for c := range in {
			if in[c] {
				return Colour(c), nil
			}
		}
	}
	var due []string
	for c := range in {
		if in[c] && !done[c] {
			due = append(due, Colour(c).Name())
		}
	}
	return 0, fmt.Errorf("the opening is not decided: %v still to throw", due)
}
