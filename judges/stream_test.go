package judges

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/parchis-table/parchis/referee"
)

// TestEvents_StalledReaderIsCutOff opens an event stream that never reads
// and floods it: the stream's writes time out and its handler ends,
// instead of holding a goroutine and a connection for ever.
func TestEvents_StalledReaderIsCutOff(t *testing.T) {
	old := streamWriteTimeout
	streamWriteTimeout = 200 * time.Millisecond
	t.Cleanup(func() { streamWriteTimeout = old })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	br := startBroker(t, ctx, "local", nil)
	srv := startDashboard(t, ctx, br.url, Opts{})
	waitFor(t, "the dashboard", 5*time.Second, func() bool { return srv.Addr() != nil })
	conn, err := net.Dial("tcp", srv.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.(*net.TCPConn).SetReadBuffer(4096)
	if _, err := fmt.Fprintf(conn, "GET /events HTTP/1.1\r\nHost: judges\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the stream to open", 5*time.Second, func() bool { return srv.streams.Load() == 1 })
	// Big events, on many tables, until the stream gives up.
	detail := strings.Repeat("x", 4000)
	deadline := time.Now().Add(20 * time.Second)
	for seq := uint64(1); srv.streams.Load() != 0; seq++ {
		if time.Now().After(deadline) {
			t.Fatalf("the stream of a reader that stopped reading is still open after %d events", seq)
		}
		b, _ := json.Marshal(referee.Event{Seq: seq, Type: referee.EventInfraction, Rule: "touched-piece", Detail: detail, Position: "- Y throw 0 - Y"})
		ch, changed, err := srv.store.Apply(fmt.Sprintf("parchis/v1/local/%d/events", seq%50), b)
		if err != nil {
			t.Fatal(err)
		}
		if changed {
			srv.hub.publish(ch)
		}
		time.Sleep(time.Millisecond)
	}
}
