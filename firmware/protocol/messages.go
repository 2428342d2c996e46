package protocol

import (
	"encoding/binary"
	"fmt"
)

// AppendPoll encodes a poll of tile addr for changes from number want on.
func AppendPoll(dst []byte, addr, tag uint8, want uint16) []byte {
	var p [2]byte
	binary.BigEndian.PutUint16(p[:], want)
	dst, _ = Append(dst, Frame{Addr: addr, Kind: KindPoll, Tag: tag, Payload: p[:]})
	return dst
}

// AppendSnapshotReq encodes a snapshot request to tile addr.
func AppendSnapshotReq(dst []byte, addr, tag uint8) []byte {
	dst, _ = Append(dst, Frame{Addr: addr, Kind: KindSnapshotReq, Tag: tag})
	return dst
}

// PollWant returns the change number a KindPoll frame asks for.
func PollWant(f Frame) (uint16, error) {
	if f.Kind != KindPoll || len(f.Payload) != 2 {
		return 0, fmt.Errorf("protocol: bad poll: %s frame with %d payload bytes", f.Kind, len(f.Payload))
	}
	return binary.BigEndian.Uint16(f.Payload), nil
}

// Changes is a decoded KindChanges payload.
type Changes struct {
	Boot, Seq uint16
	records   []byte
}

// Len returns the number of records.
func (c Changes) Len() int { return len(c.records) / ChangeRecord }

// At returns record i.
func (c Changes) At(i int) Change {
	r := c.records[i*ChangeRecord:]
	return Change{Num: binary.BigEndian.Uint16(r), Channel: r[2], Reading: Reading(r[3])}
}

// ParseChanges decodes a KindChanges frame.
func ParseChanges(f Frame) (Changes, error) {
	p := f.Payload
	if f.Kind != KindChanges || len(p) < ChangesHeader || (len(p)-ChangesHeader)%ChangeRecord != 0 {
		return Changes{}, fmt.Errorf("protocol: bad changes: %s frame with %d payload bytes", f.Kind, len(p))
	}
	return Changes{Boot: binary.BigEndian.Uint16(p), Seq: binary.BigEndian.Uint16(p[2:]), records: p[ChangesHeader:]}, nil
}

// AppendChanges encodes a KindChanges frame. At most MaxRecords records are
// taken.
func AppendChanges(dst []byte, addr, tag uint8, boot, seq uint16, recs []Change) []byte {
	if len(recs) > MaxRecords {
		recs = recs[:MaxRecords]
	}
	var p [MaxPayload]byte
	binary.BigEndian.PutUint16(p[0:], boot)
	binary.BigEndian.PutUint16(p[2:], seq)
	n := ChangesHeader
	for _, r := range recs {
		binary.BigEndian.PutUint16(p[n:], r.Num)
		p[n+2], p[n+3] = r.Channel, byte(r.Reading)
		n += ChangeRecord
	}
	dst, _ = Append(dst, Frame{Addr: addr, Kind: KindChanges, Tag: tag, Payload: p[:n]})
	return dst
}

// Snapshot is a decoded KindSnapshot payload.
type Snapshot struct {
	Boot, Seq uint16
	Readings  []Reading
}

// ParseSnapshot decodes a KindSnapshot frame. The readings are copied into
// dst, which is grown when it has too little room (give it MaxChannels of
// capacity to decode without allocating).
func ParseSnapshot(f Frame, dst []Reading) (Snapshot, error) {
	p := f.Payload
	if f.Kind != KindSnapshot || len(p) < SnapshotHeader || int(p[4]) != len(p)-SnapshotHeader || p[4] > MaxChannels {
		return Snapshot{}, fmt.Errorf("protocol: bad snapshot: %s frame with %d payload bytes", f.Kind, len(p))
	}
	s := Snapshot{Boot: binary.BigEndian.Uint16(p), Seq: binary.BigEndian.Uint16(p[2:])}
	n := int(p[4])
	if cap(dst) < n {
		dst = make([]Reading, n)
	}
	dst = dst[:n]
	for i := range dst {
		dst[i] = Reading(p[SnapshotHeader+i])
	}
	s.Readings = dst
	return s, nil
}

// AppendSnapshot encodes a KindSnapshot frame of readings (at most
// MaxChannels).
func AppendSnapshot(dst []byte, addr, tag uint8, boot, seq uint16, readings []Reading) []byte {
	if len(readings) > MaxChannels {
		readings = readings[:MaxChannels]
	}
	var p [SnapshotHeader + MaxChannels]byte
	binary.BigEndian.PutUint16(p[0:], boot)
	binary.BigEndian.PutUint16(p[2:], seq)
	p[4] = byte(len(readings))
	for i, r := range readings {
		p[SnapshotHeader+i] = byte(r)
	}
	dst, _ = Append(dst, Frame{Addr: addr, Kind: KindSnapshot, Tag: tag, Payload: p[:SnapshotHeader+len(readings)]})
	return dst
}
