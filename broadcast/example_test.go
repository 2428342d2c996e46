package broadcast_test

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/referee"
)

// A table daemon publishes its events and state, and answers the judges'
// commands that passed the publisher's checks.
func ExamplePublisher() {
	p, err := broadcast.New(broadcast.Opts{
		Broker:   "tcp://127.0.0.1:1883",
		Username: "table-t1", Password: "…",
		QueueDir: "/var/lib/parchis/queue",
		Event:    "club", Table: "t1",
		Judges: broadcast.Judges{"Ana": "q8Hn…Vw="},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go p.Run(ctx)

	p.Event(referee.Event{Seq: 1, Type: referee.EventStart, Time: time.Now(), Position: "- Y throw 0 - Y"})
	p.State(broadcast.State{Event: "club", Table: "t1", Seq: 1, Position: "- Y throw 0 - Y", PositionJSON: engine.NewPosition(engine.Yellow)})
	for req := range p.Commands() {
		switch req.Command.Type {
		case broadcast.CmdCorrect:
			req.Answer(2, nil) // the referee set the position: event 2
		default:
			req.Answer(0, errors.New("not now"))
		}
	}
}
