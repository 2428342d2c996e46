package broadcast

import (
	"time"

	"github.com/parchis-table/parchis/engine"
)

// Version is the version of the topics and payloads, part of every topic.
const Version = "v1"

// Prefix returns the topic prefix of one table: parchis/v1/<event>/<table>/.
func Prefix(event, table string) string {
	return "parchis/" + Version + "/" + event + "/" + table + "/"
}

// Topic suffixes under a table's prefix (DESIGN.md, "Live feed").
const (
	TopicStatus = "status" // retained; the last will says offline
	TopicState  = "state"  // retained full snapshot
	TopicEvents = "events" // every event (a referee.Event), QoS 1, numbered
	TopicResult = "result" // retained final result
	// TopicResults is the prefix of results/<record_sha256>: each result
	// waiting for a judge's verdict, retained, one topic a result.
	TopicResults = "results/"
	TopicCmd     = "cmd/"  // judges' commands: cmd/<type>
	TopicReply   = "reply" // the table's answers to commands
)

// TopicStandings is an event's standings, parchis/v1/<event>/standings,
// retained, published by the judges' dashboard (docs/feed.md).
const TopicStandings = "standings"

// Status is the retained status payload, and the last will with Status
// "offline".
type Status struct {
	Status   string            `json:"status"` // online or offline
	Table    string            `json:"table"`
	Event    string            `json:"event"`
	Versions map[string]string `json:"versions,omitempty"`
	// Alerts say what needs a judge's or an operator's attention at the
	// table (a damaged journal, a full disk), one sentence each; absent
	// when nothing does.
	Alerts []string  `json:"alerts,omitempty"`
	Time   time.Time `json:"time"`
}

// Light is one lit light in a State: the site (or "T0"…"T11" for the
// tray), its colour as #rrggbb and its pattern (steady, blink, pulse).
type Light struct {
	Site    string `json:"site"`
	Colour  string `json:"colour"`
	Pattern string `json:"pattern"`
}

// StateSchema is the version of the State payload's fields, its
// "schema": raised when a field changes meaning or goes away, so that a
// reader can tell a state it does not understand (docs/feed.md). New
// fields alone do not raise it.
const StateSchema = 1

// State is the retained full snapshot of a table: everything a dashboard
// needs to draw it without having seen earlier messages.
type State struct {
	// Schema is StateSchema for the states this program writes.
	Schema int    `json:"schema"`
	Event  string `json:"event"`
	Table  string `json:"table"`
	// Seq is the number of the last event included in this state.
	Seq uint64 `json:"seq"`
	// Position is the position in PPN; PositionJSON the same in JSON form.
	Position     string          `json:"position"`
	PositionJSON engine.Position `json:"position_json"`
	// Players maps colour letters to the players' names.
	Players map[string]string `json:"players"`
	// LastThrow is the last accepted throw's value, or "".
	LastThrow string `json:"last_throw,omitempty"`
	// Lights lists the lights that are on.
	Lights []Light `json:"lights"`
	// Mismatch lists the sites where the board disagrees with the game.
	Mismatch []string `json:"mismatch,omitempty"`
	// Result is YR or BG once the game is over.
	Result string `json:"result,omitempty"`
	// Robots maps the colours a robot partner plays to its level.
	Robots map[string]string `json:"robots,omitempty"`
	// WinChance is each pair's estimated chance of winning from this
	// state's position, for spectators; absent until the table has
	// estimated this position (or when it estimates none).
	WinChance *WinChance `json:"win_chance,omitempty"`
	Time      time.Time  `json:"time"`
}

// WinChance is each pair's chance of winning a game in play, estimated by
// playing it on to its end Playouts times (greedy playouts, see the bots
// package). YR and BG add up to 1; YRLow and YRHigh bound YR's 95%
// interval (BG's is 1−YRHigh to 1−YRLow).
type WinChance struct {
	// Seq is the number of the event the estimated position follows.
	Seq      uint64  `json:"seq"`
	YR       float64 `json:"yr"`
	BG       float64 `json:"bg"`
	YRLow    float64 `json:"yr_low"`
	YRHigh   float64 `json:"yr_high"`
	Playouts int     `json:"playouts"`
}

// Result is the retained final result of a game: what was played, the
// hash of its game record, the table's signature and, once a judge has
// acted, the certification.
type Result struct {
	Event    string            `json:"event"`
	Table    string            `json:"table"`
	Result   string            `json:"result"`   // YR or BG
	Position string            `json:"position"` // final PPN
	Players  map[string]string `json:"players"`
	// Record is the game record (NOTATION.md); RecordSHA256 its SHA-256 in
	// hex.
	Record       string `json:"record"`
	RecordSHA256 string `json:"record_sha256"`
	// JournalHead is the hash (hex) of the last entry of the table's
	// hash-chained journal for this game.
	JournalHead string `json:"journal_head"`
	// TableKey is the table's Ed25519 public key, TableSignature its
	// signature of SignedText(), both base64 (standard encoding).
	TableKey       string         `json:"table_key"`
	TableSignature string         `json:"table_signature"`
	Certification  *Certification `json:"certification,omitempty"`
	Time           time.Time      `json:"time"`
}

// Verdicts of a judge.
const (
	VerdictCertified = "certified"
	VerdictRejected  = "rejected"
)

// Certification is a judge's signed verdict on a result.
type Certification struct {
	Verdict string    `json:"verdict"` // certified or rejected
	Judge   string    `json:"judge"`
	Reason  string    `json:"reason,omitempty"`
	Time    time.Time `json:"time"`
	// JudgeKey is the judge's Ed25519 public key and Signature the
	// judge's signature of Result.CertifiedText(c), both base64.
	JudgeKey  string `json:"judge_key"`
	Signature string `json:"signature"`
}

// Command types, published by judges on cmd/<type>.
const (
	CmdNewGame = "new-game"
	CmdCorrect = "correct"
	CmdCertify = "certify"
	CmdReject  = "reject"
)

// Command is a judge's command to a table.
type Command struct {
	// ID is chosen by the sender and repeated in the reply.
	ID    string `json:"id"`
	Type  string `json:"type"`
	Judge string `json:"judge"`
	// Players (colour letter → name) and Starter, for new-game.
	Players map[string]string `json:"players,omitempty"`
	Starter string            `json:"starter,omitempty"`
	// Round, for new-game, names the tournament round the game belongs
	// to; the table writes it in the game's record.
	Round string `json:"round,omitempty"`
	// Bots (colour letter → bot level, or bots.Person), for new-game: the
	// robot partners of the new game; absent keeps the table's configured
	// ones, and a colour given bots.Person is a person's.
	Bots map[string]string `json:"bots,omitempty"`
	// Position (PPN), for correct.
	Position string `json:"position,omitempty"`
	// Certification, signed by the judge, for certify and reject.
	Certification *Certification `json:"certification,omitempty"`
	// RecordSHA256, for certify and reject, names the result the verdict
	// is for by its record's hash: a table may have several waiting.
	RecordSHA256 string `json:"record_sha256,omitempty"`
	// AtSeq is the number of the table's last event the judge saw: a
	// table refuses a correction or a new game once its game has moved on,
	// so that neither acts on a position the judge did not see, nor can be
	// replayed later.
	AtSeq uint64 `json:"at_seq,omitempty"`
	// JudgeKey and Signature are the judge's Ed25519 public key and
	// signature of SignedText, both base64 (standard encoding).
	JudgeKey  string `json:"judge_key,omitempty"`
	Signature string `json:"signature,omitempty"`
}

// Reply is a table's answer to a command, on the reply topic.
type Reply struct {
	ID    string `json:"id"`
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
	// Seq is the number of the event the command produced, if any.
	Seq uint64 `json:"seq,omitempty"`
}
