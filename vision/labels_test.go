package vision

import (
	"strings"
	"testing"
)

func TestReadLabels_ParsesAndReportsEveryBadLine(t *testing.T) {
	in := "file,label\na.png,3\n\n# comment\nb.png,multi,extra\nc.png,7\n,1\nd.png\ne.png,none\r\n"
	ls, err := ReadLabels(strings.NewReader(in))
	if len(ls) != 3 || ls[0].File != "a.png" || ls[0].Want.Value != 3 || ls[1].Want.Answer != Multi || ls[2].Want.Answer != None {
		t.Errorf("labels %+v", ls)
	}
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"line 6", "line 7", "line 8"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

func TestParseLabel_RoundTrip(t *testing.T) {
	for _, s := range []string{"1", "2", "3", "4", "5", "6", "none", "multi", "edge", "unsure"} {
		r, err := ParseLabel(s)
		if err != nil || r.Label() != s {
			t.Errorf("%q: %v %v", s, r, err)
		}
	}
	if _, err := ParseLabel("0"); err == nil {
		t.Error("0 accepted")
	}
}

func FuzzReadLabels(f *testing.F) {
	f.Add("file,label\na.png,3\nb.png,multi\n")
	f.Add("a,b,c\n\n#x\n,\n")
	f.Fuzz(func(t *testing.T, in string) {
		ls, _ := ReadLabels(strings.NewReader(in))
		for _, l := range ls {
			if l.File == "" || l.Line <= 0 {
				t.Fatalf("bad label %+v", l)
			}
			if _, err := ParseLabel(l.Want.Label()); err != nil {
				t.Fatal(err)
			}
		}
	})
}
