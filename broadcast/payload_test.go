package broadcast

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/parchis-table/parchis/certify"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/referee"
)

func TestResult_SignVerify_AnyChangeBreaksIt(t *testing.T) {
	table := newKey(t)
	r := testResult(t, table)
	if err := r.Verify(); err != nil {
		t.Fatalf("freshly signed: %v", err)
	}
	changes := []struct {
		name   string
		change func(r *Result)
		want   error
	}{
		{"result", func(r *Result) { r.Result = "BG" }, certify.ErrBadSignature},
		{"player", func(r *Result) { r.Players["G"] = "Eve" }, certify.ErrBadSignature},
		{"record", func(r *Result) { r.Record += "6\n" }, ErrRecordHash},
		{"journal head", func(r *Result) { r.JournalHead = strings.Repeat("0", 64) }, certify.ErrBadSignature},
		{"time", func(r *Result) { r.Time = r.Time.Add(time.Second) }, certify.ErrBadSignature},
		{"key", func(r *Result) { r.TableKey = certify.PublicKeyString(newKey(t)) }, certify.ErrBadSignature},
		{"unsigned", func(r *Result) { r.TableSignature = "" }, ErrUnsigned},
	}
	for _, c := range changes {
		t.Run(c.name, func(t *testing.T) {
			r := testResult(t, table)
			c.change(&r)
			if err := r.Verify(); !errors.Is(err, c.want) {
				t.Errorf("Verify: %v, want %v", err, c.want)
			}
		})
	}
}

func TestCertification_SignedByTrustedJudge(t *testing.T) {
	r := testResult(t, newKey(t))
	ana := newKey(t)
	judges := Judges{"Ana": certify.PublicKeyString(ana)}
	c := r.Certify(ana, Certification{Verdict: VerdictRejected, Judge: "Ana", Reason: "piece moved by hand"})
	if err := r.VerifyCertification(&c, judges); err != nil {
		t.Fatalf("verify: %v", err)
	}
	if err := r.VerifyCertification(&c, Judges{"Bea": judges["Ana"]}); !errors.Is(err, ErrUnknownJudge) {
		t.Errorf("judge not trusted: %v, want ErrUnknownJudge", err)
	}
	other := r
	other.Result = "BG"
	other.Sign(newKey(t))
	if err := other.VerifyCertification(&c, judges); !errors.Is(err, certify.ErrBadSignature) {
		t.Errorf("certification moved to another result: %v, want a bad signature", err)
	}
}

func TestParseCommand_Valid(t *testing.T) {
	tests := []struct {
		typ, payload string
	}{
		{CmdNewGame, `{"id":"1","judge":"Ana","players":{"Y":"a","R":"b"},"starter":"R"}`},
		{CmdCorrect, `{"id":"2","type":"correct","judge":"Ana","position":"- Y throw 0 - Y"}`},
		{CmdNewGame, `{"id":"4","judge":"Ana","players":{"Y":"a","B":"b","R":"c"},"starter":"Y","bots":{"G":"mc:500"}}`},
		{CmdReject, `{"id":"3","judge":"Ana","certification":{"verdict":"rejected","judge":"Ana","reason":"r","judge_key":"k","signature":"s","time":"2025-01-01T00:00:00Z"},"record_sha256":"` + strings.Repeat("0f", 32) + `"}`},
	}
	for _, tt := range tests {
		c, err := ParseCommand(tt.typ, []byte(tt.payload))
		if err != nil || c.Type != tt.typ {
			t.Errorf("%s: %+v, %v", tt.payload, c, err)
		}
	}
}

func TestParseCommand_Bots(t *testing.T) {
	for _, tc := range []struct{ bots, want string }{
		{`{"X":"greedy"}`, "new-game: bots: bad colour"},
		{`{"G":"wise"}`, `new-game: bots: G: bad bot "wise"`},
		{`{"Y":"greedy","B":"greedy","R":"greedy","G":"greedy"}`, "every colour is a bot"},
	} {
		_, err := ParseCommand(CmdNewGame, []byte(`{"id":"1","judge":"Ana","players":{"Y":"a"},"starter":"Y","bots":`+tc.bots+`}`))
		if !errors.Is(err, ErrBadCommand) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("bots %s: %v, want %q", tc.bots, err, tc.want)
		}
	}
}

// TestSignedText_Bots: robot partners are signed, and a command without
// them keeps the text it had before there were any.
func TestSignedText_Bots(t *testing.T) {
	c := Command{ID: "1", Type: CmdNewGame, Judge: "Ana", Players: map[string]string{"Y": "a"}, Starter: "Y"}
	before := string(c.SignedText("e", "t"))
	if strings.Contains(before, "bots") {
		t.Errorf("signed text without bots names them:\n%s", before)
	}
	c.Bots = map[string]string{"G": "greedy"}
	if got := string(c.SignedText("e", "t")); got != before+"bots: \"G\"=\"greedy\"\n" {
		t.Errorf("signed text with bots:\n%s", got)
	}
}

// TestSignedText_RecordSHA256: the result a verdict names is signed, and
// a command naming none keeps the text it had before verdicts named one.
func TestSignedText_RecordSHA256(t *testing.T) {
	c := Command{ID: "1", Type: CmdCertify, Judge: "Ana", Certification: &Certification{Signature: "s"}}
	before := string(c.SignedText("e", "t"))
	if strings.Contains(before, "record_sha256") {
		t.Errorf("signed text naming no result names one:\n%s", before)
	}
	c.RecordSHA256 = strings.Repeat("0f", 32)
	want := strings.Replace(before, "certification_signature: s\n", "certification_signature: s\nrecord_sha256: \""+c.RecordSHA256+"\"\n", 1)
	if got := string(c.SignedText("e", "t")); got != want {
		t.Errorf("signed text naming a result:\n%s\nwant\n%s", got, want)
	}
}

func FuzzParseCommand(f *testing.F) {
	f.Add(CmdNewGame, []byte(`{"id":"1","judge":"Ana","players":{"Y":"a","R":"b"},"starter":"R"}`))
	f.Add(CmdCorrect, []byte(`{"id":"2","judge":"Ana","position":"- Y throw 0 - Y"}`))
	f.Add(CmdNewGame, []byte(`{"id":"4","judge":"Ana","players":{"Y":"a"},"starter":"Y","bots":{"G":"mc:9"}}`))
	f.Add(CmdCertify, []byte(`{"id":"3","judge":"Ana","certification":{"verdict":"certified","judge":"Ana","judge_key":"k","signature":"s"},"record_sha256":"`+strings.Repeat("0f", 32)+`"}`))
	f.Add("x", []byte(`{"id":`))
	f.Fuzz(func(t *testing.T, typ string, b []byte) {
		c, err := ParseCommand(typ, b)
		if err != nil {
			if !errors.Is(err, ErrBadCommand) {
				t.Fatalf("error %v does not wrap ErrBadCommand", err)
			}
			return
		}
		if c.ID == "" || c.Judge == "" || c.Type != typ {
			t.Fatalf("accepted %+v", c)
		}
		if c.Type == CmdCorrect {
			if _, err := engine.ParsePPN(c.Position); err != nil {
				t.Fatalf("accepted position %q: %v", c.Position, err)
			}
		}
	})
}

func TestSequence_RepeatsDroppedGapsCounted(t *testing.T) {
	var s Sequence
	type step struct {
		seq    uint64
		fresh  bool
		missed uint64
	}
	for i, st := range []step{{1, true, 0}, {2, true, 0}, {2, false, 0}, {1, false, 0}, {5, true, 2}, {6, true, 0}} {
		fresh, missed := s.Accept(st.seq)
		if fresh != st.fresh || missed != st.missed {
			t.Errorf("step %d: Accept(%d) = %v, %d; want %v, %d", i, st.seq, fresh, missed, st.fresh, st.missed)
		}
	}
}

func TestAccessRules(t *testing.T) {
	table := &User{Name: "t", Role: RoleTable, Event: "club", Table: "t1"}
	judge := &User{Name: "j", Role: RoleJudge}
	clubJudge := &User{Name: "cj", Role: RoleJudge, Event: "club"}
	viewer := &User{Name: "v", Role: RoleViewer}
	tests := []struct {
		who   string
		u     *User
		topic string
		write bool
		ok    bool
	}{
		{"table", table, "parchis/v1/club/t1/events", true, true},
		{"table", table, "parchis/v1/club/t1/state", true, true},
		{"table", table, "parchis/v1/club/t1/cmd/correct", true, false},
		{"table", table, "parchis/v1/club/t2/events", true, false},
		{"table", table, "parchis/v1/other/t1/events", true, false},
		{"table", table, "parchis/v1/club/t1/cmd/#", false, true},
		{"judge", judge, "parchis/v1/club/t1/cmd/certify", true, true},
		{"judge", judge, "parchis/v1/club/t1/state", true, false},
		{"judge", judge, "parchis/v1/club/t1/cmd", true, false},
		{"judge", clubJudge, "parchis/v1/open/t1/cmd/correct", true, false},
		{"judge", clubJudge, "parchis/v1/club/t9/cmd/correct", true, true},
		{"judge", judge, "parchis/v1/club/standings", true, true},
		{"judge", clubJudge, "parchis/v1/club/standings", true, true},
		{"judge", clubJudge, "parchis/v1/open/standings", true, false},
		{"judge", &User{Name: "tj", Role: RoleJudge, Event: "club", Table: "t1"}, "parchis/v1/club/standings", true, false},
		{"judge", judge, "parchis/v1/+/standings", true, false},
		{"table", table, "parchis/v1/club/standings", true, false},
		{"viewer", viewer, "parchis/v1/club/t1/cmd/correct", true, false},
		{"viewer", viewer, "parchis/v1/#", false, true},
		{"anonymous", nil, "parchis/v1/club/+/state", false, true},
		{"anonymous", nil, "parchis/v1/club/t1/cmd/new-game", true, false},
		{"anonymous", nil, "#", false, false},
		{"anonymous", nil, "$SYS/#", false, false},
	}
	for _, tt := range tests {
		if got := allowed(tt.u, tt.topic, tt.write); got != tt.ok {
			t.Errorf("%s write=%v %s: allowed %v, want %v", tt.who, tt.write, tt.topic, got, tt.ok)
		}
	}
}

func TestPassword_HashChecks(t *testing.T) {
	h, err := hashPassword("s3cret", 1000)
	if err != nil {
		t.Fatal(err)
	}
	if !checkPassword(h, []byte("s3cret")) || checkPassword(h, []byte("s3cret ")) || checkPassword("s3cret", []byte("s3cret")) {
		t.Errorf("password check wrong for %s", h)
	}
}

func BenchmarkEncodeEvent(b *testing.B) {
	e := referee.Event{Seq: 12, Type: referee.EventMove, Time: time.Now(), Colour: "Y", Move: "5-12", Position: "5:Y,YG:YYY Y throw 0 - Y"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(e); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeState(b *testing.B) {
	pos := engine.NewPosition(engine.Yellow)
	s := State{Event: "club", Table: "t1", Seq: 120, Position: pos.String(), PositionJSON: pos,
		Players: map[string]string{"Y": "Ana", "B": "Bea", "R": "Rui", "G": "Gil"}, Time: time.Now()}
	for i := range 20 {
		s.Lights = append(s.Lights, Light{Site: "5", Colour: "#ffcc00", Pattern: []string{"steady", "blink"}[i%2]})
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(s); err != nil {
			b.Fatal(err)
		}
	}
}
