package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/certify"
	"github.com/parchis-table/parchis/journal"
)

// judging is what the judges gave the table that its journal does not
// hold, kept in DIR/judging.json across restarts: the tournament round of
// their last new-game, written in the records of the games that follow,
// and the results of the games since, oldest first — each waiting for a
// verdict, or decided and still shown on the feed until the judges start
// the next game. A newer game never hides an older result: each is
// published on its own topic and certified by its record's hash.
type judging struct {
	Round   string              `json:"round,omitempty"`
	Results []*broadcast.Result `json:"results,omitempty"`
}

// judgingName is the file of the table's judging, in its directory.
const judgingName = "judging.json"

func (d *daemon) judgingFile() string { return filepath.Join(d.cfg.Dir, judgingName) }

// loadJudging reads back the round and the results of the last run. A
// result that is not this table's, signed, is left out and the file kept
// aside (judging.json.damaged-…) for an operator: nothing is lost. A
// result whose verdict was saved beside the games but not here (a stop in
// between) gets it back.
func (d *daemon) loadJudging() {
	b, err := os.ReadFile(d.judgingFile())
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	var j judging
	if err == nil {
		err = json.Unmarshal(b, &j)
	}
	var bad []string
	if err != nil {
		bad = append(bad, err.Error())
		j = judging{}
	}
	ours := certify.PublicKeyString(d.key)
	kept := j.Results[:0]
	for _, r := range j.Results {
		switch {
		case r == nil || !broadcast.IsRecordHash(r.RecordSHA256):
			bad = append(bad, "a result without its record's hash")
			continue
		case r.TableKey != ours:
			bad = append(bad, fmt.Sprintf("result %s: signed by another table's key", short(r.RecordSHA256)))
			continue
		case slices.ContainsFunc(kept, func(k *broadcast.Result) bool { return k.RecordSHA256 == r.RecordSHA256 }):
			continue
		}
		if err := r.Verify(); err != nil {
			bad = append(bad, err.Error())
			continue
		}
		if c := r.Certification; c != nil {
			if err := r.VerifyCertification(c, d.judges); err != nil {
				// A verdict that does not verify any more (the judge's key
				// changed in the configuration) is not shown as given.
				d.log.Error("a saved verdict does not verify: the result waits again", "record_sha256", r.RecordSHA256, "err", err)
				r.Certification = nil
			}
		}
		if r.Certification == nil {
			d.loadCertified(r)
		}
		kept = append(kept, r)
	}
	j.Results = kept
	d.judging = j
	if len(bad) > 0 {
		aside := d.judgingFile() + ".damaged-" + time.Now().UTC().Format("20060102T150405")
		if err := os.WriteFile(aside, b, 0o640); err != nil {
			d.log.Error("the judging file cannot be kept aside", "file", aside, "err", err)
		}
		d.log.Error("the judging file has results that are not this table's: they are left out, the file kept aside",
			"file", d.judgingFile(), "aside", aside, "problems", strings.Join(bad, "; "))
	}
	if len(d.judging.Results) > 0 || d.judging.Round != "" {
		d.log.Info("judging read back", "round", d.judging.Round, "results", len(d.judging.Results), "waiting", d.waitingCount())
	}
}

// saveJudging writes the judging file. When it cannot (a full disk), the
// table goes on with what it has in memory, says so in its alerts, and
// tries again every second.
func (d *daemon) saveJudging() {
	b, err := json.MarshalIndent(&d.judging, "", "  ")
	if err == nil {
		err = journal.WriteFileAtomic(d.judgingFile(), b, 0o640)
	}
	if err != nil && d.judgingErr == nil {
		d.log.Error("the judging file cannot be written: the round and results waiting are kept in memory", "err", err)
	} else if err == nil && d.judgingErr != nil {
		d.log.Info("the judging file written again")
	}
	d.judgingErr = err
}

// publishResults publishes every result the table shows, each on its own
// topic.
func (d *daemon) publishResults() {
	if d.pub == nil {
		return
	}
	rs := make([]broadcast.Result, len(d.judging.Results))
	for i, r := range d.judging.Results {
		rs[i] = *r
	}
	if err := d.pub.Results(rs); err != nil {
		d.log.Error("results", "err", err)
	}
}

// keepResult adds a finished game's result to those shown, unless it is
// there already (read back after a restart, with any verdict given), and
// returns the one kept.
func (d *daemon) keepResult(res *broadcast.Result) *broadcast.Result {
	if r := d.findResult(res.RecordSHA256); r != nil {
		return r
	}
	d.loadCertified(res)
	d.judging.Results = append(d.judging.Results, res)
	for len(d.judging.Results) > maxResults {
		// A table nobody judges (a club's) would otherwise keep every
		// game: the oldest decided result leaves first, then the oldest
		// waiting. Both stay in DIR/games.
		i := slices.IndexFunc(d.judging.Results, func(r *broadcast.Result) bool { return r.Certification != nil })
		if i < 0 {
			i = 0
			d.log.Warn("too many results waiting for a judge: the oldest leaves the feed (kept in games/)",
				"record_sha256", d.judging.Results[0].RecordSHA256, "max", maxResults)
		}
		d.judging.Results = slices.Delete(d.judging.Results, i, i+1)
	}
	d.saveJudging()
	return res
}

// maxResults bounds the results a table shows: far more than the games of
// a championship's day at one table.
const maxResults = 64

// findResult returns the result shown with the record hash h, or nil.
func (d *daemon) findResult(h string) *broadcast.Result {
	for _, r := range d.judging.Results {
		if r.RecordSHA256 == h {
			return r
		}
	}
	return nil
}

// waitingCount counts the results waiting for a verdict.
func (d *daemon) waitingCount() int {
	n := 0
	for _, r := range d.judging.Results {
		if r.Certification == nil {
			n++
		}
	}
	return n
}

// newRound notes the round of the judges' new game, and withdraws the
// results decided since the last one (they are kept in DIR/games).
func (d *daemon) newRound(round string) {
	d.judging.Round = round
	d.judging.Results = slices.DeleteFunc(d.judging.Results, func(r *broadcast.Result) bool { return r.Certification != nil })
	d.saveJudging()
	d.publishResults()
}

// certify gives a judge's verdict on the result the command names by its
// record's hash: checked against the table's judges, kept on disk, then
// published. A verdict on a result the table does not have, or on one
// already decided, is refused: a verdict is final.
func (d *daemon) certify(c broadcast.Command) error {
	if c.Certification == nil {
		return errors.New("the command carries no certification")
	}
	r := d.findResult(c.RecordSHA256)
	if r == nil {
		if d.waitingCount() == 0 {
			return fmt.Errorf("no result is waiting for a judge (the verdict names %s)", short(c.RecordSHA256))
		}
		return fmt.Errorf("no result %s at this table: waiting are %s", short(c.RecordSHA256), d.waitingList())
	}
	if v := r.Certification; v != nil {
		return fmt.Errorf("the result %s is already %s by %s", short(r.RecordSHA256), v.Verdict, v.Judge)
	}
	if err := r.VerifyCertification(c.Certification, d.judges); err != nil {
		return err
	}
	// Kept on disk first: a verdict that could not be saved is not given.
	certified := *r
	certified.Certification = c.Certification
	if err := d.saveCertified(&certified); err != nil {
		return err
	}
	*r = certified
	d.saveJudging()
	d.log.Info("verdict", "record_sha256", r.RecordSHA256, "verdict", c.Certification.Verdict, "judge", c.Certification.Judge, "waiting", d.waitingCount())
	d.publishResults()
	if d.pub != nil && d.result == r {
		return d.pub.Result(*r)
	}
	return nil
}

// waitingList names the results waiting, oldest first, for an error.
func (d *daemon) waitingList() string {
	var hs []string
	for _, r := range d.judging.Results {
		if r.Certification == nil {
			hs = append(hs, short(r.RecordSHA256))
		}
	}
	return strings.Join(hs, ", ")
}

// short is the first 16 hex digits of a record's hash, as the certified
// results' files are named.
func short(h string) string {
	if len(h) > 16 {
		return h[:16]
	}
	return h
}

// certifiedFile is where the certified result r is kept, beside the saved
// games: named by its record's hash.
func (d *daemon) certifiedFile(r *broadcast.Result) string {
	return filepath.Join(d.cfg.Dir, "games", "result-"+short(r.RecordSHA256)+".json")
}

// saveCertified keeps a certified result beside the saved games.
func (d *daemon) saveCertified(res *broadcast.Result) error {
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	return journal.WriteFileAtomic(d.certifiedFile(res), b, 0o640)
}

// loadCertified takes back the verdict on r saved beside the games, when a
// judge gave one before a restart.
func (d *daemon) loadCertified(r *broadcast.Result) {
	file := d.certifiedFile(r)
	b, err := os.ReadFile(file)
	if err != nil {
		return
	}
	var saved broadcast.Result
	if err := json.Unmarshal(b, &saved); err != nil || saved.Certification == nil || saved.RecordSHA256 != r.RecordSHA256 {
		d.log.Error("the saved verdict does not belong to its game", "file", file, "err", err)
		return
	}
	if err := r.VerifyCertification(saved.Certification, d.judges); err != nil {
		d.log.Error("the saved verdict does not verify", "file", file, "err", err)
		return
	}
	r.Certification = saved.Certification
}
