package broadcast

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/parchis-table/parchis/bots"
	"github.com/parchis-table/parchis/engine"
)

// MaxCommandSize is the largest command payload accepted.
const MaxCommandSize = 64 << 10

// ErrBadCommand is wrapped by every error of ParseCommand.
var ErrBadCommand = errors.New("bad command")

// CommandTypes lists the command types, each published on cmd/<type>.
var CommandTypes = []string{CmdNewGame, CmdCorrect, CmdCertify, CmdReject}

// ParseCommand parses and checks a judge's command received on
// cmd/<typ>: strict JSON (no unknown fields, nothing after the object), a
// known type agreeing with the topic, an id and a judge, and the fields
// its type needs — players as colour letters with names and a starter
// among them for new-game, a valid PPN for correct, a certification with
// the matching verdict by the same judge, and the hash of the result it is
// for, for certify and reject. Its
// signature is checked by the Publisher, which knows the result and the
// trusted judges. The error wraps ErrBadCommand and says what is wrong; the
// returned Command carries the id when it could be read, for the reply.
func ParseCommand(typ string, payload []byte) (Command, error) {
	var c Command
	bad := func(format string, args ...any) (Command, error) {
		return c, fmt.Errorf("%w: %s", ErrBadCommand, fmt.Sprintf(format, args...))
	}
	if len(payload) > MaxCommandSize {
		return bad("%d bytes, more than %d", len(payload), MaxCommandSize)
	}
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		// Keep the id for the reply if the payload is at least an object with one.
		var id struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(payload, &id) == nil {
			c = Command{ID: id.ID}
		} else {
			c = Command{}
		}
		return bad("JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return bad("JSON: data after the command object")
	}
	if c.Type == "" {
		c.Type = typ
	}
	switch {
	case c.Type != typ:
		return bad("type %q published on cmd/%s", c.Type, typ)
	case !isCommandType(typ):
		return bad("unknown type %q: want one of %s", typ, strings.Join(CommandTypes, ", "))
	case c.ID == "":
		return bad("missing id")
	case len(c.ID) > 128:
		return bad("id longer than 128 bytes")
	case c.Judge == "":
		return bad("missing judge")
	}
	switch c.Type {
	case CmdNewGame:
		if len(c.Players) == 0 {
			return bad("new-game: missing players")
		}
		for k, name := range c.Players {
			if _, err := engine.ParseColour(k); err != nil {
				return bad("new-game: players: %v", err)
			}
			if strings.TrimSpace(name) == "" {
				return bad("new-game: players: %s has no name", k)
			}
		}
		if c.Starter == "" {
			return bad("new-game: missing starter")
		}
		if _, err := engine.ParseColour(c.Starter); err != nil {
			return bad("new-game: starter: %v", err)
		}
		if _, ok := c.Players[c.Starter]; !ok {
			return bad("new-game: starter %s is not among the players", c.Starter)
		}
		if len(c.Round) > 40 || strings.ContainsAny(c.Round, "\r\n\"") {
			return bad("new-game: round %q: want at most 40 characters on one line, without quotes", c.Round)
		}
		robots := 0
		for k, level := range c.Bots {
			if _, err := engine.ParseColour(k); err != nil {
				return bad("new-game: bots: %v", err)
			}
			if level == bots.Person {
				continue
			}
			robots++
			if _, err := bots.New(level, 0); err != nil {
				return bad("new-game: bots: %s: %v", k, err)
			}
		}
		if robots == engine.NumColours {
			return bad("new-game: bots: every colour is a bot; a player must make the robots' moves")
		}
	case CmdCorrect:
		if c.Position == "" {
			return bad("correct: missing position")
		}
		if _, err := engine.ParsePPN(c.Position); err != nil {
			return bad("correct: position: %v", err)
		}
	case CmdCertify, CmdReject:
		want := VerdictCertified
		if c.Type == CmdReject {
			want = VerdictRejected
		}
		switch {
		case c.Certification == nil:
			return bad("%s: missing certification", c.Type)
		case c.Certification.Verdict != want:
			return bad("%s: verdict %q, want %q", c.Type, c.Certification.Verdict, want)
		case c.Certification.Judge != c.Judge:
			return bad("%s: certification by %q sent by %q", c.Type, c.Certification.Judge, c.Judge)
		case c.Certification.JudgeKey == "" || c.Certification.Signature == "":
			return bad("%s: certification not signed", c.Type)
		case c.Type == CmdReject && strings.TrimSpace(c.Certification.Reason) == "":
			return bad("reject: missing reason")
		case c.RecordSHA256 == "":
			return bad("%s: missing record_sha256: name the result the verdict is for", c.Type)
		case !IsRecordHash(c.RecordSHA256):
			return bad("%s: record_sha256 %q: want 64 lower-case hex digits", c.Type, c.RecordSHA256)
		}
	}
	return c, nil
}

// IsRecordHash reports whether s is a game record's hash as results carry
// it (record_sha256): 64 lower-case hex digits.
func IsRecordHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func isCommandType(t string) bool {
	for _, c := range CommandTypes {
		if c == t {
			return true
		}
	}
	return false
}
