// Package broadcast is the table's live feed over MQTT (DESIGN.md, "Live
// feed"; every topic and field in docs/feed.md): the topics and payloads,
// the Publisher that a table daemon runs against any standard broker, the
// embedded Broker for a single table or a club, and the judges' commands.
//
// Under parchis/v1/<event>/<table>/ a table publishes its retained status
// (online, or offline as the last will), its retained state, every event
// on events (QoS 1, numbered from 1 without gaps), its retained result,
// and its answers to commands on reply; judges publish commands on
// cmd/<type>.
//
// Delivery of events is at least once, in order. The Publisher writes each
// event to an on-disk queue (fsync'd, CRC-checked records) before Event
// returns and removes it only when the broker has acknowledged it, so
// events survive a broker outage and a restart of the daemon. After a lost
// connection the unacknowledged events are published again: a subscriber
// may then see an event a second time, never out of order otherwise. A
// subscriber presents each event once by its number, with a Sequence.
//
// The access rules of the embedded broker are plain data (User): a table
// writes only its own subtree except cmd/, a judge writes only commands,
// everyone reads parchis/v1/. ci/mosquitto.sh sets up Mosquitto with the
// same rules.
package broadcast

// Sequence presents each event of a table once, in order, to a
// subscriber: QoS 1 delivers at least once, so after a reconnection an
// event may arrive again. The zero Sequence expects event 1.
type Sequence struct {
	last uint64
}

// Accept reports whether the event numbered seq is new (to be shown) and,
// when events were skipped before it, how many (a gap the subscriber
// cannot fill from the feed; the retained state is still current). An
// event numbered at or below the last accepted one is a repeat.
func (s *Sequence) Accept(seq uint64) (fresh bool, missed uint64) {
	if seq <= s.last {
		return false, 0
	}
	missed = seq - s.last - 1
	s.last = seq
	return true, missed
}

// Last returns the number of the last accepted event.
func (s *Sequence) Last() uint64 { return s.last }

// Reset makes the Sequence expect event 1 again, for a new game whose
// events are numbered afresh, or resume after seq (from a retained state).
func (s *Sequence) Reset(seq uint64) { s.last = seq }
