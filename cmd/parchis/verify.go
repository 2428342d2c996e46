package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/certify"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/internal/spanish"
	"github.com/parchis-table/parchis/journal"
	"github.com/parchis-table/parchis/table"
)

// runVerify checks a certified result: the table's signature, the judge's
// signature, and that the game record replays to the result.
func runVerify(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	lang := spanish.LocaleLang()
	fs := newFlags("verify", lang.Pick("[-judges FILE] [-table-key KEY] RESULT.json [RECORD]", "[-judges FICHERO] [-table-key CLAVE] RESULTADO.json [ACTA]"), lang.Pick(
		"Checks a result published by a table (docs/feed.md), or a certified one kept\n"+
			"beside the saved games (result-*.json): the record's hash, the\n"+
			"table's signature, the judge's certification or rejection when there is one,\n"+
			"and that the record replays with the rules to the result's position and\n"+
			"winner. The record is the one inside the result, or RECORD, whose hash must\n"+
			"then match too. RESULT.json may be - for standard input. Every check is\n"+
			"printed; exit 1 when one fails, 2 when a file cannot be read.\n\n"+
			"RESULT.json may also be the snapshot a table saves beside each record\n"+
			"(games/YYYY-MM-DD_<table>_<n>.json): it carries no signature, so what is\n"+
			"checked is that its record (and RECORD, or the .txt beside it) replays to\n"+
			"its position and winner, and that the archived journal beside it ends with\n"+
			"the head it names. Messages follow LANG (es or en).",
		"Comprueba un resultado publicado por una mesa (docs/feed.md), o uno\n"+
			"certificado guardado junto a las partidas (result-*.json): el hash del acta,\n"+
			"la firma de la mesa, la certificación o el rechazo del juez si lo hay, y que\n"+
			"el acta se reproduce con las reglas hasta la posición y la pareja ganadora\n"+
			"del resultado. El acta es la que lleva el resultado, o ACTA, cuyo hash ha de\n"+
			"coincidir también. RESULTADO.json puede ser - para la entrada estándar. Se\n"+
			"escribe cada comprobación; estado 1 si alguna falla, 2 si no se puede leer\n"+
			"un fichero.\n\n"+
			"RESULTADO.json puede ser también la instantánea que una mesa guarda junto a\n"+
			"cada acta (games/YYYY-MM-DD_<table>_<n>.json): no lleva firma, así que se\n"+
			"comprueba que su acta (y ACTA, o el .txt de al lado) se reproduce hasta su\n"+
			"posición y su ganadora, y que el diario archivado a su lado acaba en la\n"+
			"cabeza que indica. Los mensajes siguen a LANG (es o en)."),
		lang.Pick("  parchis verify -judges judges.json result.json game.txt\n"+
			"  ok   record hash of game.txt 3b1f…9c0e\n"+
			"  ok   record hash 3b1f…9c0e and table signature (key q8Hn…Vw=)\n"+
			"  ok   record replays to the result: YR, - Y end 0 - Y\n"+
			"  ok   certified by Ana (key in judges.json)\n"+
			"  verified",
			"  parchis verify -judges jueces.json resultado.json partida.txt\n"+
				"  bien   hash del acta partida.txt 3b1f…9c0e\n"+
				"  bien   hash del acta 3b1f…9c0e y firma de la mesa (clave q8Hn…Vw=)\n"+
				"  bien   el acta se reproduce hasta el resultado: YR, - Y end 0 - Y\n"+
				"  bien   certificado por Ana (clave en jueces.json)\n"+
				"  verificado"), stderr)
	judgesFile := fs.String("judges", "", lang.Pick("JSON file of trusted judges' keys, {\"name\": \"base64 key\", …}", "`FICHERO` JSON con las claves de los jueces de confianza, {\"nombre\": \"clave base64\", …}"))
	tableKey := fs.String("table-key", "", lang.Pick("the table's public key (base64) the result must be signed with", "la `CLAVE` pública de la mesa (base64) con la que debe estar firmado el resultado"))
	trustKeys := fs.Bool("trust-keys", false, lang.Pick("accept the keys the result names: check only that the signatures match them", "acepta las claves que nombra el resultado: solo comprueba que las firmas casan con ellas"))
	if st := parseFlags(fs, args); st >= 0 {
		return st
	}
	if fs.NArg() < 1 || fs.NArg() > 2 {
		fmt.Fprintln(stderr, lang.Pick("parchis verify: want RESULT.json and an optional RECORD", "parchis verify: se espera RESULTADO.json y, si se quiere, un ACTA"))
		return exitUsage
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "parchis verify: %s\n", lang.Say(fmt.Sprintf(format, a...)))
		return exitUsage
	}
	raw, err := readArg(fs.Arg(0), stdin)
	if err != nil {
		return fail("%v", err)
	}
	var res broadcast.Result
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&res); err != nil {
		var sg table.SavedGame
		sdec := json.NewDecoder(bytes.NewReader(raw))
		sdec.DisallowUnknownFields()
		if serr := sdec.Decode(&sg); serr != nil || sg.Seq == 0 {
			return fail("%s: %s: %v", fs.Arg(0), lang.Pick("neither a result nor a table's saved game", "no es ni un resultado ni una partida guardada por una mesa"), lang.Say(err.Error()))
		}
		return verifySaved(fs.Arg(0), fs.Arg(1), &sg, lang, stdout, stderr)
	}
	var judges broadcast.Judges
	if *judgesFile != "" {
		b, err := os.ReadFile(*judgesFile)
		if err != nil {
			return fail("%v", err)
		}
		if err := json.Unmarshal(b, &judges); err != nil {
			return fail("%s: %s", *judgesFile, lang.Say(err.Error()))
		}
	}

	failed := 0
	check := func(err error, ok string) {
		if err != nil {
			failed++
			fmt.Fprintf(stdout, "%s %s\n", lang.Pick("FAIL", "FALLO"), lang.Say(err.Error()))
			return
		}
		fmt.Fprintf(stdout, "%s   %s\n", lang.Pick("ok", "bien"), ok)
	}

	record := []byte(res.Record)
	if fs.NArg() == 2 {
		if record, err = os.ReadFile(fs.Arg(1)); err != nil {
			return fail("%v", err)
		}
		h := certify.RecordHash(record)
		var err error
		if h != res.RecordSHA256 {
			err = fmt.Errorf("record hash: %s hashes to %s, the result says %s", fs.Arg(1), h, res.RecordSHA256)
		}
		check(err, lang.Pick("record hash of ", "hash del acta ")+fs.Arg(1)+" "+h)
	}
	if len(record) == 0 {
		check(fmt.Errorf("record: the result carries none; give RECORD"), "")
	}

	err = res.Verify()
	if err == nil && *tableKey != "" && res.TableKey != *tableKey {
		err = fmt.Errorf("table signature: made with key %s, want %s", res.TableKey, *tableKey)
	}
	what := lang.Pick("table signature (key ", "firma de la mesa (clave ") + res.TableKey + ")"
	if res.Record != "" {
		what = lang.Pick("record hash ", "hash del acta ") + res.RecordSHA256 + lang.Pick(" and ", " y ") + what
	}
	check(err, what)

	if len(record) > 0 {
		check(replaysTo(record, &res), fmt.Sprintf("%s: %s, %s", lang.Pick("record replays to the result", "el acta se reproduce hasta el resultado"), res.Result, res.Position))
	}

	// Signatures prove something only with keys one trusts: a judge's
	// among -judges (the judge's signature covers the table's), or else the
	// table's given with -table-key; -trust-keys waives that knowingly.
	if c := res.Certification; c != nil {
		err := res.VerifyCertification(c, judges)
		how := lang.Pick("key in ", "clave en ") + *judgesFile
		switch {
		case err == nil && judges == nil && *trustKeys:
			how = lang.Pick("key not checked: -trust-keys", "clave sin comprobar: -trust-keys")
		case err == nil && judges == nil:
			err = fmt.Errorf("%s by %s: the judge's key is not checked: give -judges FILE (or -trust-keys)", c.Verdict, c.Judge)
		}
		verdict := c.Verdict
		if lang == spanish.Spanish {
			verdict = map[string]string{broadcast.VerdictCertified: "certificado", broadcast.VerdictRejected: "rechazado"}[c.Verdict]
		}
		check(err, fmt.Sprintf("%s %s %s (%s)", verdict, lang.Pick("by", "por"), c.Judge, how))
		if err == nil && c.Verdict == broadcast.VerdictRejected {
			fmt.Fprintf(stdout, "%s: %s\n", lang.Pick("note the judge rejected the result", "nota el juez rechazó el resultado"), c.Reason)
		}
	} else {
		fmt.Fprintln(stdout, lang.Pick("note no judge has certified or rejected the result", "nota ningún juez ha certificado ni rechazado el resultado"))
		if *tableKey == "" && !*trustKeys {
			check(errors.New("the table's key is not checked: give -table-key KEY (or -trust-keys)"), "")
		}
	}

	if failed > 0 {
		fmt.Fprintf(stdout, "%s: %d\n", lang.Pick("NOT VERIFIED: checks failed", "NO VERIFICADO: comprobaciones fallidas"), failed)
		return exitRule
	}
	fmt.Fprintln(stdout, lang.Pick("verified", "verificado"))
	return exitOK
}

// replaysTo replays a record and compares its end with the result.
func replaysTo(record []byte, res *broadcast.Result) error {
	g, err := engine.ReadRecord(bytes.NewReader(record))
	if err != nil {
		return fmt.Errorf("record does not replay: %w", err)
	}
	w, ok := g.Pos.Winner()
	switch {
	case !ok:
		return fmt.Errorf("record replays to an unfinished game (%s), the result says %s", g.Pos.String(), res.Result)
	case w.String() != res.Result:
		return fmt.Errorf("record replays to a win of %s, the result says %s", w, res.Result)
	case g.Pos.String() != res.Position:
		return fmt.Errorf("record replays to position %s, the result says %s", g.Pos.String(), res.Position)
	}
	return nil
}

// readArg reads a named file, or standard input for "-".
func readArg(name string, stdin io.Reader) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(stdin)
	}
	return os.ReadFile(name)
}

// verifySaved checks a table's saved game (table.SavedGame, read from
// name): its record replays to its position and winner; the record file
// (recordFile, or the .txt beside name) is the same record; the archived
// journal beside it, when there, ends with the head it names.
func verifySaved(name, recordFile string, sg *table.SavedGame, lang spanish.Lang, stdout, stderr io.Writer) int {
	failed := 0
	check := func(err error, ok string) {
		if err != nil {
			failed++
			fmt.Fprintf(stdout, "%s %s\n", lang.Pick("FAIL", "FALLO"), lang.Say(err.Error()))
			return
		}
		fmt.Fprintf(stdout, "%s   %s\n", lang.Pick("ok", "bien"), ok)
	}
	fmt.Fprintf(stdout, "%s %s\n", lang.Pick("note", "nota"), lang.Pick(
		"a table's saved game: not signed (its signed result is the feed's, or result-*.json)",
		"partida guardada por la mesa: sin firma (el resultado firmado es el del canal, o result-*.json)"))
	base := strings.TrimSuffix(name, ".json")
	if recordFile == "" && name != "-" {
		if _, err := os.Stat(base + ".txt"); err == nil {
			recordFile = base + ".txt"
		}
	}
	if recordFile != "" {
		b, err := os.ReadFile(recordFile)
		if err != nil {
			fmt.Fprintf(stderr, "parchis verify: %s\n", lang.Say(err.Error()))
			return exitUsage
		}
		var cerr error
		if string(b) != sg.Record {
			cerr = fmt.Errorf("%s: %s", recordFile, lang.Pick("not the record the saved game holds", "no es el acta que guarda la partida"))
		}
		check(cerr, lang.Pick("record ", "acta ")+recordFile+lang.Pick(" is the saved game's", " es la de la partida guardada"))
	}
	res := broadcast.Result{Result: sg.Result, Position: sg.Position}
	check(replaysTo([]byte(sg.Record), &res), fmt.Sprintf("%s: %s, %s", lang.Pick("record replays to the saved result", "el acta se reproduce hasta el resultado guardado"), sg.Result, sg.Position))
	if name != "-" {
		if f, err := os.Open(base + ".journal"); err == nil {
			head, n, verr := journal.Verify(f)
			f.Close()
			if verr == nil && head.String() != sg.JournalHead {
				verr = fmt.Errorf("%s.journal: head %s, %s %s", base, head, lang.Pick("the saved game names", "la partida guardada dice"), sg.JournalHead)
			}
			check(verr, fmt.Sprintf("%s.journal: %d %s %s", base, n, lang.Pick("records, head", "registros, cabeza"), head))
		}
	}
	if failed > 0 {
		fmt.Fprintf(stdout, "%s: %d\n", lang.Pick("NOT VERIFIED: checks failed", "NO VERIFICADO: comprobaciones fallidas"), failed)
		return exitRule
	}
	fmt.Fprintln(stdout, lang.Pick("verified", "verificado"))
	return exitOK
}
