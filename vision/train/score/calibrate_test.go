package main

import "testing"

// isVal draws the frames train.py's data.is_val draws (values computed
// with train.py's hashing).
func TestIsVal_MatchesTrainPy(t *testing.T) {
	for _, tc := range []struct {
		key  string
		want bool
	}{
		{"awsvegas_dice/frames/img_0.jpg", false},
		{"awsvegas_dice/frames/img_2.jpg", false},
		{"awsvegas_dice/frames/img_3.jpg", true},
		{"awsvegas_dice/frames/img_4.jpg", true},
		{"awsvegas_dice/frames/img_8.jpg", true},
		{"awsvegas_dice/frames/img_9.jpg", false},
	} {
		if got := isVal(tc.key); got != tc.want {
			t.Errorf("isVal(%q) = %v, want %v", tc.key, got, tc.want)
		}
	}
}
