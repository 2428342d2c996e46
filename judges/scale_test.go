package judges

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/parchis-table/parchis/internal/testnet"
)

// readRSS returns a process's resident set size in bytes (Linux), or 0.
func readRSS(pid int) float64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(v)
			if len(f) > 0 {
				kb, _ := strconv.ParseFloat(f[0], 64)
				return kb * 1024
			}
		}
	}
	return 0
}

// BenchmarkScale_200Tables runs the embedded broker and 200 simulated
// tables in the test process, the dashboard (parchis-judges, built from
// this module) in its own process with every table's history filled to
// its bound, and one SSE client. Each table then plays a throw or a move
// every second, for 5 s per iteration. It reports the latency from an
// event handed to a table's publisher to its card arriving at the client
// (p50-ms, p99-ms) and the dashboard process's resident memory
// (dashboard-rss-MB).
func BenchmarkScale_200Tables(b *testing.B) {
	const tables = 200
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	names := make([]string, tables)
	for i := range names {
		names[i] = strconv.Itoa(i + 1)
	}
	br := startBroker(b, ctx, "bench", names)
	dash := startDashboardProcess(b, ctx, br.url)
	sims := make([]*simTable, tables)
	var wg sync.WaitGroup
	for i := range sims {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sims[i] = startTable(b, ctx, br.url, "bench", names[i], nil, uint64(i))
		}()
	}
	wg.Wait()

	// Fill every table's history to its bound, as after a long session:
	// straight to the broker, without the publishers' on-disk queues, a
	// few tables at a time so as not to exceed the broker's in-flight
	// quota towards the dashboard.
	sem := make(chan struct{}, 4)
	for _, st := range sims {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			o := mqtt.NewClientOptions().AddBroker(br.url).SetClientID("fill-" + st.table).
				SetUsername("table-" + st.table).SetPassword(testPassword)
			c := mqtt.NewClient(o)
			if tok := c.Connect(); !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
				b.Errorf("fill %s: connect: %v", st.table, tok.Error())
				return
			}
			defer c.Disconnect(100)
			var last mqtt.Token
			st.mu.Lock()
			st.direct = func(topic string, payload []byte) {
				last = c.Publish(topic, 1, strings.HasSuffix(topic, "/state"), payload)
			}
			st.mu.Unlock()
			for range DefaultHistory {
				if st.step() == 0 {
					st.newGame(st.players, 0)
				}
			}
			st.mu.Lock()
			st.direct = nil
			st.mu.Unlock()
			last.WaitTimeout(30 * time.Second)
		}()
	}
	wg.Wait()
	if b.Failed() {
		return
	}
	deadline := time.Now().Add(120 * time.Second)
	for {
		var all []Table
		if err := getJSON(ctx, dash.base+"/api/tables?feed=0", &all); err == nil {
			full := 0
			for _, t := range all {
				if t.FeedLen >= DefaultHistory*9/10 {
					full++
				}
			}
			if full == tables {
				break
			}
			if time.Now().After(deadline) {
				b.Fatalf("only %d of %d tables have a full history", full, len(all))
			}
		}
		time.Sleep(200 * time.Millisecond)
	}

	// The SSE client: records when each (table, seq) arrives.
	type key struct {
		id  string
		seq uint64
	}
	var mu sync.Mutex
	arrived := map[key]time.Time{}
	req, _ := http.NewRequestWithContext(ctx, "GET", dash.base+"/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	go func() {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 8<<20)
		for sc.Scan() {
			d, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var m struct {
				ID  string `json:"id"`
				Seq uint64 `json:"seq"`
			}
			if json.Unmarshal([]byte(d), &m) != nil || m.ID == "" {
				continue
			}
			now := time.Now()
			mu.Lock()
			if _, seen := arrived[key{m.ID, m.Seq}]; !seen {
				arrived[key{m.ID, m.Seq}] = now
			}
			mu.Unlock()
		}
	}()
	time.Sleep(200 * time.Millisecond)

	// Each table acts about once a second, spread over the second.
	type sent struct {
		k key
		t time.Time
	}
	var sends []sent
	var smu sync.Mutex
	b.ReportAllocs()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		for round := 0; round < 5; round++ {
			start := time.Now()
			var rw sync.WaitGroup
			for i, st := range sims {
				rw.Add(1)
				go func() {
					defer rw.Done()
					time.Sleep(time.Duration(i) * time.Second / tables)
					seq := st.step()
					if seq == 0 {
						seq = st.newGame(st.players, 0)
					}
					st.mu.Lock()
					t := st.sent[seq]
					st.mu.Unlock()
					smu.Lock()
					sends = append(sends, sent{key{"bench/" + st.table, seq}, t})
					smu.Unlock()
				}()
			}
			rw.Wait()
			if d := time.Since(start); d < time.Second {
				time.Sleep(time.Second - d)
			}
		}
	}
	time.Sleep(time.Second)
	b.StopTimer()

	var lat []time.Duration
	missing := 0
	mu.Lock()
	for _, s := range sends {
		if at, ok := arrived[s.k]; ok {
			lat = append(lat, at.Sub(s.t))
		} else {
			missing++
		}
	}
	mu.Unlock()
	if len(lat) == 0 {
		b.Fatal("no event reached the client")
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(float64(len(lat)), "events")
	b.ReportMetric(float64(missing), "missed")
	b.ReportMetric(readRSS(dash.pid)/(1<<20), "dashboard-rss-MB")
	if testing.Verbose() {
		fmt.Printf("events %d, missed %d, p50 %.1f ms, p99 %.1f ms, max %.1f ms\n", len(lat), missing, pct(0.5), pct(0.99), pct(1))
	}
}

// dashProcess is a parchis-judges process.
type dashProcess struct {
	base string
	pid  int
}

// startDashboardProcess builds and starts parchis-judges against the
// broker, as the dashboard user, and waits for it to answer.
func startDashboardProcess(b *testing.B, ctx context.Context, brokerURL string) *dashProcess {
	b.Helper()
	exe := filepath.Join(b.TempDir(), "parchis-judges")
	if out, err := exec.Command("go", "build", "-o", exe, "github.com/parchis-table/parchis/cmd/parchis-judges").CombinedOutput(); err != nil {
		b.Fatalf("build parchis-judges: %v\n%s", err, out)
	}
	addr := testnet.Addr(b)
	cmd := exec.CommandContext(ctx, exe, "-broker", brokerURL, "-addr", addr, "-mqtt-user", testDashUser)
	cmd.Env = append(os.Environ(), "PARCHIS_MQTT_PASSWORD="+testPassword)
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	d := &dashProcess{base: "http://" + addr, pid: cmd.Process.Pid}
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get(d.base + "/healthz")
		if err == nil {
			resp.Body.Close()
			return d
		}
		if time.Now().After(deadline) {
			b.Fatalf("parchis-judges did not answer: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// getJSON fetches a URL and decodes its JSON body.
func getJSON(ctx context.Context, u string, out any) error {
	req, err := http.NewRequestWithContext(ctx, "GET", u, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", u, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}
