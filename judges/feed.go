package judges

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/parchis-table/parchis/broadcast"
)

// FeedFilter is the topic filter the dashboard subscribes to: every table
// of every event.
const FeedFilter = "parchis/" + broadcast.Version + "/#"

// ErrNoReply is returned when a table does not answer a command in time.
var ErrNoReply = errors.New("no reply from the table")

// ErrNotConnected is returned for a command while the broker is away.
var ErrNotConnected = errors.New("not connected to the broker")

// feed is the dashboard's MQTT client: it feeds the store and the hub, and
// sends judges' commands and waits for their replies.
type feed struct {
	s      *Server
	client mqtt.Client

	mu      sync.Mutex
	waiting map[string]chan broadcast.Reply // by reply topic and command id
}

func newFeed(s *Server) *feed {
	f := &feed{s: s, waiting: map[string]chan broadcast.Reply{}}
	o := mqtt.NewClientOptions().
		AddBroker(s.opts.Broker).
		SetClientID(s.opts.ClientID).
		SetUsername(s.opts.Username).
		SetPassword(s.opts.Password).
		SetCleanSession(true).
		SetAutoReconnect(true).
		SetConnectRetry(true).
		SetConnectRetryInterval(time.Second).
		SetMaxReconnectInterval(5 * time.Second).
		SetKeepAlive(30 * time.Second).
		// A connection a restarting broker accepts but never answers is
		// given up soon, and tried again.
		SetConnectTimeout(5 * time.Second).
		SetOrderMatters(true)
	o.SetOnConnectHandler(func(c mqtt.Client) {
		s.log.Info("judges: connected to the broker", "broker", s.opts.Broker)
		tok := c.Subscribe(FeedFilter, 1, f.onMessage)
		go func() {
			if tok.WaitTimeout(10*time.Second) && tok.Error() != nil {
				s.log.Error("judges: subscribe", "filter", FeedFilter, "err", tok.Error())
			}
		}()
	})
	o.SetConnectionLostHandler(func(_ mqtt.Client, err error) {
		s.log.Warn("judges: lost the broker", "err", err)
	})
	f.client = mqtt.NewClient(o)
	return f
}

// run connects (retrying until it succeeds) and disconnects when ctx is
// done.
func (f *feed) run(ctx context.Context) {
	tok := f.client.Connect()
	go func() {
		tok.Wait()
		if err := tok.Error(); err != nil {
			f.s.log.Error("judges: connect", "broker", f.s.opts.Broker, "err", err)
		}
	}()
	<-ctx.Done()
	f.client.Disconnect(250)
}

// onMessage takes one message of the feed.
func (f *feed) onMessage(_ mqtt.Client, m mqtt.Message) {
	f.handle(m.Topic(), m.Payload())
}

// handle applies one message: a reply goes to its waiter, the rest to the
// store and, when it changed something, to the pages.
func (f *feed) handle(topic string, payload []byte) {
	if strings.HasSuffix(topic, "/"+broadcast.TopicReply) {
		var r broadcast.Reply
		if err := json.Unmarshal(payload, &r); err != nil {
			f.s.log.Warn("judges: bad reply", "topic", topic, "err", err)
			return
		}
		f.mu.Lock()
		// Only the table the command went to answers it: the key is the
		// reply topic and the id (anyone reading cmd/ learns ids).
		key := topic + "\x00" + r.ID
		ch := f.waiting[key]
		delete(f.waiting, key)
		f.mu.Unlock()
		if ch != nil {
			ch <- r
		}
		return
	}
	ch, changed, err := f.s.store.Apply(topic, payload)
	if err != nil {
		f.s.log.Warn("judges: bad message", "err", err)
		return
	}
	if changed {
		f.s.hub.publish(ch)
		if ch.Arrived != nil {
			f.s.noteResult(ch.ID, ch.Arrived)
			f.s.keepResult(ch.ID, ch.Arrived)
		}
	}
}

// publishRetained publishes a retained message, without waiting: the
// broker keeps the latest for whoever subscribes later.
func (f *feed) publishRetained(topic string, payload []byte) {
	if !f.client.IsConnectionOpen() {
		f.s.log.Warn("judges: not connected: not published", "topic", topic)
		return
	}
	tok := f.client.Publish(topic, 1, true, payload)
	go func() {
		if tok.WaitTimeout(10*time.Second) && tok.Error() != nil {
			f.s.log.Error("judges: publish", "topic", topic, "err", tok.Error())
		}
	}()
}

// command publishes a judge's command to a table and waits for its reply.
// A reply that says the command failed is returned with a nil error.
func (f *feed) command(ctx context.Context, event, table string, c broadcast.Command) (broadcast.Reply, error) {
	if !f.client.IsConnectionOpen() {
		return broadcast.Reply{}, ErrNotConnected
	}
	b, err := json.Marshal(c)
	if err != nil {
		return broadcast.Reply{}, fmt.Errorf("command: %w", err)
	}
	ch := make(chan broadcast.Reply, 1)
	key := broadcast.Prefix(event, table) + broadcast.TopicReply + "\x00" + c.ID
	f.mu.Lock()
	f.waiting[key] = ch
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		delete(f.waiting, key)
		f.mu.Unlock()
	}()
	topic := broadcast.Prefix(event, table) + broadcast.TopicCmd + c.Type
	tok := f.client.Publish(topic, 1, false, b)
	ctx, cancel := context.WithTimeout(ctx, f.s.opts.ReplyTimeout)
	defer cancel()
	select {
	case <-tok.Done():
		if err := tok.Error(); err != nil {
			return broadcast.Reply{}, fmt.Errorf("publish %s: %w", topic, err)
		}
	case <-ctx.Done():
		return broadcast.Reply{}, fmt.Errorf("publish %s: %w", topic, ErrNoReply)
	}
	select {
	case r := <-ch:
		return r, nil
	case <-ctx.Done():
		return broadcast.Reply{}, fmt.Errorf("%s: %w", topic, ErrNoReply)
	}
}
