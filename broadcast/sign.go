package broadcast

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/parchis-table/parchis/certify"
)

// SignedText returns the canonical text of a result that the table signs:
// one "key: value" line per field, free text quoted as Go strings, players
// sorted by colour, times in RFC 3339 UTC. The record itself is covered by
// its hash, TableSignature and Certification by nothing (they sign this).
func (r *Result) SignedText() []byte {
	var b []byte
	b = append(b, "parchis-result "+Version+"\n"...)
	line := func(k, v string) {
		b = append(b, k...)
		b = append(b, ": "...)
		b = append(b, v...)
		b = append(b, '\n')
	}
	line("event", strconv.Quote(r.Event))
	line("table", strconv.Quote(r.Table))
	line("result", strconv.Quote(r.Result))
	line("position", strconv.Quote(r.Position))
	line("players", playersText(r.Players))
	line("record_sha256", r.RecordSHA256)
	line("journal_head", r.JournalHead)
	line("table_key", r.TableKey)
	line("time", timeText(r.Time))
	return b
}

// CertifiedText returns the canonical text a judge signs to certify or
// reject r: the result's signed text and its table signature, then the
// verdict's fields.
func (r *Result) CertifiedText(c *Certification) []byte {
	b := []byte("parchis-certification " + Version + "\n")
	b = append(b, r.SignedText()...)
	b = append(b, "table_signature: "+r.TableSignature+"\n"...)
	b = append(b, "verdict: "+strconv.Quote(c.Verdict)+"\n"...)
	b = append(b, "judge: "+strconv.Quote(c.Judge)+"\n"...)
	b = append(b, "reason: "+strconv.Quote(c.Reason)+"\n"...)
	b = append(b, "judge_time: "+timeText(c.Time)+"\n"...)
	b = append(b, "judge_key: "+c.JudgeKey+"\n"...)
	return b
}

func playersText(p map[string]string) string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var sb strings.Builder
	for i, k := range keys {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(strconv.Quote(k))
		sb.WriteByte('=')
		sb.WriteString(strconv.Quote(p[k]))
	}
	return sb.String()
}

func timeText(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// Sign fills in the record's hash (when Record is set), the table's public
// key and its signature of SignedText. Any certification is left as is;
// sign before a judge certifies.
func (r *Result) Sign(key ed25519.PrivateKey) {
	if r.Record != "" {
		r.RecordSHA256 = certify.RecordHash([]byte(r.Record))
	}
	r.TableKey = certify.PublicKeyString(key)
	r.TableSignature = certify.Sign(key, r.SignedText())
}

// Errors of Verify and VerifyCertification, wrapped with what failed.
var (
	ErrRecordHash   = errors.New("record does not match record_sha256")
	ErrUnsigned     = errors.New("not signed")
	ErrUnknownJudge = errors.New("judge's key is not among the trusted judges' keys")
)

// Verify checks that Record (when present) hashes to RecordSHA256 and that
// TableSignature is the signature of SignedText by TableKey. It does not
// check who TableKey belongs to, nor the certification.
func (r *Result) Verify() error {
	if r.Record != "" {
		if h := certify.RecordHash([]byte(r.Record)); h != r.RecordSHA256 {
			return fmt.Errorf("result of %s/%s: %w (record hashes to %s, result says %q)", r.Event, r.Table, ErrRecordHash, h, r.RecordSHA256)
		}
	}
	if r.TableKey == "" || r.TableSignature == "" {
		return fmt.Errorf("result of %s/%s: table signature: %w", r.Event, r.Table, ErrUnsigned)
	}
	if err := certify.VerifyString(r.TableKey, r.SignedText(), r.TableSignature); err != nil {
		return fmt.Errorf("result of %s/%s: table signature: %w", r.Event, r.Table, err)
	}
	return nil
}

// Certify returns c signed by a judge's key as a verdict on r: JudgeKey and
// Signature are filled in.
func (r *Result) Certify(key ed25519.PrivateKey, c Certification) Certification {
	c.JudgeKey = certify.PublicKeyString(key)
	c.Signature = certify.Sign(key, r.CertifiedText(&c))
	return c
}

// VerifyCertification checks that c is a verdict ("certified" or
// "rejected") on r signed by c.JudgeKey and, when judges is not nil, that
// judges maps c.Judge to that key.
func (r *Result) VerifyCertification(c *Certification, judges Judges) error {
	if c.Verdict != VerdictCertified && c.Verdict != VerdictRejected {
		return fmt.Errorf("certification: verdict %q: want %q or %q", c.Verdict, VerdictCertified, VerdictRejected)
	}
	if c.JudgeKey == "" || c.Signature == "" {
		return fmt.Errorf("certification by %q: %w", c.Judge, ErrUnsigned)
	}
	if judges != nil && judges[c.Judge] != c.JudgeKey {
		return fmt.Errorf("certification by %q: %w", c.Judge, ErrUnknownJudge)
	}
	if err := certify.VerifyString(c.JudgeKey, r.CertifiedText(c), c.Signature); err != nil {
		return fmt.Errorf("certification by %q: %w", c.Judge, err)
	}
	return nil
}

// SignedText returns the canonical text a judge signs to send c to the
// table event/table: the table's name, so that a command for one table
// does nothing at another, and every field of c but the signature; a
// certification is covered by its own signature.
func (c *Command) SignedText(event, table string) []byte {
	b := []byte("parchis-command " + Version + "\n")
	line := func(k, v string) {
		b = append(b, k+": "+v+"\n"...)
	}
	line("event", strconv.Quote(event))
	line("table", strconv.Quote(table))
	line("id", strconv.Quote(c.ID))
	line("type", strconv.Quote(c.Type))
	line("judge", strconv.Quote(c.Judge))
	line("players", playersText(c.Players))
	line("starter", strconv.Quote(c.Starter))
	line("position", strconv.Quote(c.Position))
	if c.Round != "" {
		// Only when set, so that commands signed before rounds existed
		// still verify.
		line("round", strconv.Quote(c.Round))
	}
	cert := ""
	if c.Certification != nil {
		cert = c.Certification.Signature
	}
	line("certification_signature", cert)
	if c.RecordSHA256 != "" {
		// Only when set, so that commands signed before verdicts named
		// their result still verify.
		line("record_sha256", strconv.Quote(c.RecordSHA256))
	}
	line("at_seq", strconv.FormatUint(c.AtSeq, 10))
	line("judge_key", c.JudgeKey)
	if len(c.Bots) > 0 {
		// Only with robot partners, so that commands signed before there
		// were any keep their text.
		line("bots", playersText(c.Bots))
	}
	return b
}

// Sign fills in the judge's public key and signature of c for the table
// event/table. Sign after the certification, if any, is signed.
func (c *Command) Sign(event, table string, key ed25519.PrivateKey) {
	c.JudgeKey = certify.PublicKeyString(key)
	c.Signature = certify.Sign(key, c.SignedText(event, table))
}

// VerifySignature checks that c was signed for the table event/table with
// the key judges give c.Judge.
func (c *Command) VerifySignature(event, table string, judges Judges) error {
	if c.JudgeKey == "" || c.Signature == "" {
		return fmt.Errorf("%s command by %q: %w", c.Type, c.Judge, ErrUnsigned)
	}
	if judges[c.Judge] != c.JudgeKey {
		return fmt.Errorf("%s command by %q: %w", c.Type, c.Judge, ErrUnknownJudge)
	}
	if err := certify.VerifyString(c.JudgeKey, c.SignedText(event, table), c.Signature); err != nil {
		return fmt.Errorf("%s command by %q: %w", c.Type, c.Judge, err)
	}
	return nil
}

// Judges maps judges' names to their Ed25519 public keys (standard base64):
// the judges a table trusts to certify or reject its results.
type Judges map[string]string

func parseKey(s string) ([]byte, error) { return certify.ParsePublicKey(s) }
