package judges

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/certify"
)

// ErrWrongTableKey reports a result signed by a key other than the one
// the organiser registered for its table.
var ErrWrongTableKey = errors.New("signed by a key that is not the table's")

// Trust is what the dashboard checks a result against before a judge may
// certify it: a judge must never sign a result the table did not sign.
type Trust struct {
	// TableKeys maps a table ("event/table") to its Ed25519 public key
	// (standard base64). A table not listed is checked only against the
	// key its result names, which proves the result intact but not who
	// made it.
	TableKeys map[string]string
	// Judges are the judges whose verdicts the dashboard trusts.
	Judges broadcast.Judges
}

// checkResult returns what is wrong with r, a result of table id: with its
// record or the table's signature (then it must not be certified), and with
// the judge's verdict it carries.
func (tr Trust) checkResult(id string, r *broadcast.Result) (result, verdict error) {
	if err := r.Verify(); err != nil {
		result = err
	} else if k, ok := tr.TableKeys[id]; ok && k != r.TableKey {
		result = fmt.Errorf("result of %s: key %s: %w (%s)", id, r.TableKey, ErrWrongTableKey, k)
	}
	if c := r.Certification; c != nil {
		verdict = r.VerifyCertification(c, tr.Judges)
	}
	return result, verdict
}

// ReadTableKeys reads a file of tables' keys: one table a line, EVENT/TABLE
// KEY, the key as `parchisd` logs it at start (Ed25519, standard base64);
// blank lines and lines starting with # are skipped. Every bad line is
// reported, with its number.
func ReadTableKeys(r io.Reader) (map[string]string, error) {
	out := map[string]string{}
	seen := map[string]int{}
	err := readLines(r, "table keys file", func(n int, f []string) error {
		if len(f) != 2 {
			return errors.New("want EVENT/TABLE KEY")
		}
		event, table, ok := strings.Cut(f[0], "/")
		if !ok || event == "" || table == "" || strings.Contains(table, "/") {
			return fmt.Errorf("table %q: want EVENT/TABLE", f[0])
		}
		if _, err := certify.ParsePublicKey(f[1]); err != nil {
			return fmt.Errorf("%s: %w", f[0], err)
		}
		if prev, dup := seen[f[0]]; dup {
			return fmt.Errorf("table %s already on line %d", f[0], prev)
		}
		seen[f[0]] = n
		out[f[0]] = f[1]
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
