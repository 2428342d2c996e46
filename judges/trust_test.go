package judges

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/certify"
)

func newKey(t testing.TB) ed25519.PrivateKey {
	t.Helper()
	_, k, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestStore_ChecksResultSignatures applies results signed in every way a
// table, a broken link or an impostor could send them, and checks what
// the dashboard says of each.
func TestStore_ChecksResultSignatures(t *testing.T) {
	tableKey, otherKey, judgeKey, strangerKey := newKey(t), newKey(t), newKey(t), newKey(t)
	signed := func(key ed25519.PrivateKey) *broadcast.Result {
		r := &broadcast.Result{Event: "e", Table: "1", Result: "YR", Position: "- Y end 0 - Y",
			Players: map[string]string{"Y": "Ana"}, Record: "[Result \"YR\"]\n", JournalHead: strings.Repeat("0", 64),
			Time: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)}
		r.Sign(key)
		return r
	}
	judged := func(judge string, key ed25519.PrivateKey) *broadcast.Result {
		r := signed(tableKey)
		c := r.Certify(key, broadcast.Certification{Verdict: broadcast.VerdictCertified, Judge: judge, Time: r.Time})
		r.Certification = &c
		return r
	}
	tests := []struct {
		name       string
		table      string // the table it is published for
		r          *broadcast.Result
		registered bool
		result     error // wanted in ResultProblem; nil for none
		resultText string
		verdict    error
	}{
		{name: "signed with the registered key", table: "e/1", r: signed(tableKey), registered: true},
		{name: "signed, table not registered", table: "e/2", r: signed(otherKey)},
		{name: "signed by an impostor", table: "e/1", r: signed(otherKey), resultText: ErrWrongTableKey.Error()},
		{name: "record altered", table: "e/1", r: func() *broadcast.Result {
			r := signed(tableKey)
			r.Record += "1. Y 5\n"
			return r
		}(), result: broadcast.ErrRecordHash},
		{name: "winner altered", table: "e/1", r: func() *broadcast.Result {
			r := signed(tableKey)
			r.Result = "BG"
			return r
		}(), result: certify.ErrBadSignature},
		{name: "unsigned", table: "e/2", r: func() *broadcast.Result {
			r := signed(tableKey)
			r.TableSignature = ""
			return r
		}(), result: broadcast.ErrUnsigned},
		{name: "verdict by a trusted judge", table: "e/1", r: judged("ana", judgeKey), registered: true},
		{name: "verdict by a stranger", table: "e/1", r: judged("ana", strangerKey), registered: true, verdict: broadcast.ErrUnknownJudge},
		{name: "verdict by an unknown name", table: "e/1", r: judged("zoe", judgeKey), registered: true, verdict: broadcast.ErrUnknownJudge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := NewStore(10)
			st.trust = Trust{
				TableKeys: map[string]string{"e/1": certify.PublicKeyString(tableKey)},
				Judges:    broadcast.Judges{"ana": certify.PublicKeyString(judgeKey)},
			}
			b, _ := json.Marshal(tt.r)
			topic := "parchis/" + broadcast.Version + "/" + tt.table + "/" + broadcast.TopicResult
			if _, _, err := st.Apply(topic, b); err != nil {
				t.Fatal(err)
			}
			tb, _ := st.Get(tt.table)
			wantProblem := tt.result != nil || tt.resultText != ""
			if (tb.ResultProblem != "") != wantProblem {
				t.Fatalf("result problem %q, want one: %v", tb.ResultProblem, wantProblem)
			}
			rerr, verr := st.trust.checkResult(tt.table, tt.r)
			if tt.result != nil && !errors.Is(rerr, tt.result) {
				t.Errorf("result error %v, want %v", rerr, tt.result)
			}
			if tt.resultText != "" && !strings.Contains(tb.ResultProblem, tt.resultText) {
				t.Errorf("result problem %q, want it to say %q", tb.ResultProblem, tt.resultText)
			}
			if tb.KeyRegistered != tt.registered {
				t.Errorf("key registered %v, want %v", tb.KeyRegistered, tt.registered)
			}
			if (tb.VerdictProblem != "") != (tt.verdict != nil) || (tt.verdict != nil && !errors.Is(verr, tt.verdict)) {
				t.Errorf("verdict problem %q (%v), want %v", tb.VerdictProblem, verr, tt.verdict)
			}
			v := viewResult(LangEN, tb)
			want := map[bool]string{true: "sig-bad", false: "sig-unregistered"}[wantProblem]
			if tt.registered {
				want = "sig-registered"
			}
			if v.Signature != want {
				t.Errorf("shown as %s, want %s", v.Signature, want)
			}
		})
	}
}

// TestStore_BadResultKeepsTheLastGood checks that a result that does not
// parse leaves the one shown, and an empty one clears it with its checks.
func TestStore_BadResultKeepsTheLastGood(t *testing.T) {
	st := NewStore(10)
	r := broadcast.Result{Event: "e", Table: "1", Result: "YR"}
	r.Sign(newKey(t))
	b, _ := json.Marshal(r)
	topic := "parchis/" + broadcast.Version + "/e/1/" + broadcast.TopicResult
	if _, _, err := st.Apply(topic, b); err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.Apply(topic, []byte(`{"result":`)); err == nil || !strings.Contains(err.Error(), "bad result") {
		t.Fatalf("truncated result: error %v, want bad result", err)
	}
	if tb, _ := st.Get("e/1"); tb.Result == nil || tb.Result.Result != "YR" {
		t.Fatalf("result after a bad one: %+v", tb.Result)
	}
	if _, _, err := st.Apply(topic, nil); err != nil {
		t.Fatal(err)
	}
	if tb, _ := st.Get("e/1"); tb.Result != nil || tb.ResultProblem != "" || tb.KeyRegistered {
		t.Fatalf("cleared result: %+v", tb)
	}
}

// TestAct_RefusesToCertifyAnUntrustedResult checks that the dashboard
// refuses to sign a verdict on a result whose signature fails, before
// anything reaches the table.
func TestAct_RefusesToCertifyAnUntrustedResult(t *testing.T) {
	r := &broadcast.Result{Event: "e", Table: "1", Result: "YR"}
	r.Sign(newKey(t))
	tb := &Table{Event: "e", Table: "1", Result: r, ResultProblem: "table signature: " + certify.ErrBadSignature.Error()}
	s := &Server{} // no feed: reaching the table would panic
	err := s.act(context.Background(), &judge{name: "ana", key: newKey(t)}, tb, broadcast.CmdCertify, url.Values{"record": {r.RecordSHA256}})
	var ae *ActionError
	if !errors.As(err, &ae) || ae.Key != "bad-signature" || !strings.Contains(ae.Detail, "does not verify") {
		t.Fatalf("certify of a bad result: %v, want bad-signature naming the failure", err)
	}
}

func TestReadTableKeys(t *testing.T) {
	k1, k2 := certify.PublicKeyString(newKey(t)), certify.PublicKeyString(newKey(t))
	good := "# the club's tables\n\nliga/1 " + k1 + "\n  liga/2   " + k2 + "  \n"
	got, err := ReadTableKeys(strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["liga/1"] != k1 || got["liga/2"] != k2 {
		t.Fatalf("keys %v", got)
	}
	for _, tt := range []struct{ in, want string }{
		{"liga/1", "line 1: want EVENT/TABLE KEY"},
		{"liga " + k1, `line 1: table "liga": want EVENT/TABLE`},
		{"liga/1/x " + k1, `want EVENT/TABLE`},
		{"/1 " + k1, `want EVENT/TABLE`},
		{"liga/1 notbase64!", "line 1: liga/1: public key"},
		{"liga/1 AAAA", "3 bytes, want 32"},
		{"liga/1 " + k1 + "\nliga/1 " + k2, "line 2: table liga/1 already on line 1"},
		{"x\n\ny", "line 1: want EVENT/TABLE KEY; line 3: want EVENT/TABLE KEY"},
	} {
		if _, err := ReadTableKeys(strings.NewReader(tt.in)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want %q", tt.in, err, tt.want)
		}
	}
}

func FuzzReadTableKeys(f *testing.F) {
	f.Add("liga/1 " + certify.PublicKeyString(newKey(f)) + "\n# c\n")
	f.Add("a/b c\n/\n")
	f.Fuzz(func(t *testing.T, in string) {
		keys, err := ReadTableKeys(strings.NewReader(in))
		if err != nil {
			return
		}
		for table, k := range keys {
			if strings.Count(table, "/") != 1 {
				t.Errorf("table %q accepted", table)
			}
			if _, err := certify.ParsePublicKey(k); err != nil {
				t.Errorf("key %q accepted: %v", k, err)
			}
		}
	})
}

// TestFlow_ImpostorResult_NotCertifiable has a table whose results are
// signed by another key than the one registered for it: the dashboard
// flags the result and refuses to certify it, over the real broker.
func TestFlow_ImpostorResult_NotCertifiable(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	br := startBroker(t, ctx, "local", []string{"1"})
	registered := certify.PublicKeyString(newKey(t))
	srv := startDashboard(t, ctx, br.url, Opts{TableKeys: map[string]string{"local/1": registered}})
	st := startTable(t, ctx, br.url, "local", "1", srv.JudgeKeys(), 3)
	st.playToEnd()
	res := st.Result()
	if res == nil {
		t.Fatal("game did not end")
	}
	waitFor(t, "the result", 5*time.Second, func() bool { tb, _ := srv.Store().Get("local/1"); return tb.Pending() })

	c := newClient(t, "http://"+srv.Addr().String())
	csrf := c.login(DemoJudgeName, DemoJudgePasswd)
	_, page := c.get("/t/local/1")
	for _, want := range []string{`class="sig sig-bad"`, T(LangES, "sig-bad"), "firmado con una clave que no es la de la mesa", T(LangES, "bad-signature")} {
		if !strings.Contains(page, want) {
			t.Errorf("table page lacks %q", want)
		}
	}
	if strings.Contains(page, `id="certify-form"`) {
		t.Error("table page offers to certify a result signed by the wrong key")
	}
	_, body := c.post("/t/local/1/certify", url.Values{"csrf": {csrf}, "record": {res.RecordSHA256}})
	if !strings.Contains(body, T(LangES, "bad-signature")) {
		t.Errorf("certify of the impostor's result: want %q", T(LangES, "bad-signature"))
	}
	if st.Result().Certification != nil {
		t.Fatal("the table got a verdict on a result the dashboard does not trust")
	}
}

func TestLoadTableKeys_NamesTheFile(t *testing.T) {
	path := t.TempDir() + "/tables.txt"
	if err := os.WriteFile(path, []byte("liga/1 AAAA\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadTableKeys(path); err == nil || !strings.Contains(err.Error(), path+": table keys file: line 1") {
		t.Errorf("error %v, want the file and line named", err)
	}
	if _, err := LoadTableKeys(path + ".missing"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestDemoJudge_KeyKeptInItsFile checks that the demo judge keeps its key
// across restarts when given a file, so its verdicts stay trusted.
func TestDemoJudge_KeyKeptInItsFile(t *testing.T) {
	file := t.TempDir() + "/demo-judge.key"
	keys := func() string {
		s, err := New(Opts{DemoKeyFile: file, Logger: quietLog()})
		if err != nil {
			t.Fatal(err)
		}
		return s.JudgeKeys()[DemoJudgeName]
	}
	first := keys()
	if first == "" || keys() != first {
		t.Errorf("the demo judge's key changed across restarts")
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("key file: %v, %v; want mode 0600", fi, err)
	}
}

// FuzzStoreApply feeds the dashboard's store arbitrary messages on every
// topic it reads: it never panics, and what it keeps stays consistent.
func FuzzStoreApply(f *testing.F) {
	r := broadcast.Result{Event: "e", Table: "1", Result: "YR", Record: "x"}
	r.Sign(newKey(f))
	rb, _ := json.Marshal(r)
	f.Add(broadcast.TopicResult, rb)
	f.Add(broadcast.TopicEvents, []byte(`{"seq":3,"type":"throw","position":"- Y throw 0 - Y"}`))
	f.Add(broadcast.TopicState, []byte(`{"seq":1,"position":"- Y throw 0 - Y"}`))
	f.Add(broadcast.TopicStatus, []byte(`{"status":"online"}`))
	f.Add(broadcast.TopicResult, []byte(`{"result":`))
	f.Fuzz(func(t *testing.T, rest string, payload []byte) {
		st := NewStore(5)
		_, changed, err := st.Apply("parchis/"+broadcast.Version+"/e/1/"+rest, payload)
		if err != nil && changed {
			t.Fatalf("a message that did not parse changed the store: %v", err)
		}
		tb, ok := st.Get("e/1")
		if !ok {
			return
		}
		if len(tb.Feed) > 5 {
			t.Errorf("feed of %d, history 5", len(tb.Feed))
		}
		if tb.Result == nil && (tb.ResultProblem != "" || tb.KeyRegistered) {
			t.Errorf("checks kept without a result: %+v", tb)
		}
	})
}
